// The frame log: direction, method, id, time, round-trip, size; a row expands to its
// JSON; a filter matches extension, method, id or text. The newest rows that match are
// drawn (the model keeps them all).

import { h, replace } from "./dom.js";
import { fmtSize, fmtTime, jsonTree } from "./render.js";
import type { FrameRow } from "./store.js";

const shown = 500;

export class FrameLog {
  el = h("div", { class: "frames-view" });
  private filter = h("input", { type: "search", id: "frame-filter", placeholder: "filter: method, id, extension, text…" });
  private dir = h("select", { id: "frame-dir" }, h("option", { value: "" }, "both directions"), h("option", { value: "host->ext" }, "host → ext"),
    h("option", { value: "ext->host" }, "ext → host"));
  private table = h("tbody", {});
  private count = h("span", { class: "muted" });
  private expanded = new Set<number>();
  private rows: FrameRow[] = [];
  private origin = 0;

  constructor() {
    const redraw = () => this.draw();
    this.filter.addEventListener("input", redraw);
    this.dir.addEventListener("change", redraw);
    this.el.append(h("div", { class: "toolbar" }, this.filter, " ", this.dir, " ", this.count),
      h("table", { class: "frames" }, h("thead", {}, h("tr", {}, ...["#", "time", "ext", "dir", "kind", "method", "id", "ms", "size"].map((c) => h("th", {}, c)))), this.table));
  }

  render(rows: FrameRow[], origin: number): void {
    this.rows = rows;
    this.origin = origin;
    this.draw();
  }

  private matches(r: FrameRow, q: string, dir: string): boolean {
    if (dir && r.direction !== dir) return false;
    if (!q) return true;
    const hay = `${r.ext} ${r.method ?? ""} ${JSON.stringify(r.id ?? "")} ${r.kind} ${r.text ?? ""} ${r.json !== undefined ? JSON.stringify(r.json) : ""}`.toLowerCase();
    return q.split(/\s+/).every((w) => hay.includes(w));
  }

  private draw(): void {
    const q = this.filter.value.trim().toLowerCase();
    const dir = this.dir.value;
    // Numbered in arrival order among frames (the live entry seq also counts events).
    const match = this.rows.map((r, i) => ({ r, n: i + 1 })).filter(({ r }) => this.matches(r, q, dir));
    const tail = match.slice(-shown);
    this.count.textContent = `${match.length} of ${this.rows.length} frames${match.length > shown ? ` (newest ${shown} shown)` : ""}`;
    const trs: HTMLElement[] = [];
    for (const { r, n } of tail) {
      const open = this.expanded.has(r.seq);
      trs.push(h("tr", { class: `frame ${r.direction === "host->ext" ? "out" : "in"} kind-${r.kind}`, "data-seq": r.seq, onclick: () => {
        if (open) this.expanded.delete(r.seq);
        else this.expanded.add(r.seq);
        this.draw();
      } },
      h("td", {}, n), h("td", {}, fmtTime(r.at, this.origin)), h("td", {}, `${r.ext}[${r.gen}]`), h("td", {}, r.direction === "host->ext" ? "→" : "←"),
      h("td", {}, r.kind), h("td", {}, r.method ?? ""), h("td", {}, r.id !== undefined ? JSON.stringify(r.id) : ""),
      h("td", {}, r.durationMs !== undefined ? r.durationMs : r.answeredIn !== undefined ? `(${r.answeredIn})` : ""), h("td", {}, fmtSize(r.size))));
      if (open) {
        trs.push(h("tr", { class: "frame-json" }, h("td", { colspan: 9 }, r.json !== undefined ? jsonTree(r.json, 4) : h("pre", {}, r.text ?? ""))));
      }
    }
    replace(this.table, ...trs);
  }
}
