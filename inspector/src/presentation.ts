// Presentation snapshots as the host accepted them, newest per owner: status, activities,
// the collection (a list, or a tree from parent links) and the actions, each a button
// that runs its command. The counts show the rate coalescing: frames the extension sent
// against snapshots delivered, and which revisions came through.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { fmtTime, jsonTree } from "./render.js";
import type { PresentationRow, Store } from "./store.js";

export function renderPresentation(el: HTMLElement, store: Store): void {
  const rows = [...store.presentation.values()].sort((a, b) => b.at - a.at);
  const origin = store.state?.started_at_ms ?? 0;
  replace(el, rows.length === 0 ? h("p", { class: "muted" }, "No presentation snapshot yet.") : null, ...rows.map((r) => card(r, origin)));
}

// owner names whose snapshot this is: the process's own, or a session's (the resource
// owner the host derived from the request it was published under).
function owner(o: any): string {
  if (!o) return "process-scoped";
  return `owned by ${o.session_id ?? "?"} (generation ${o.process_generation ?? "?"})`;
}

function card(r: PresentationRow, origin: number): HTMLElement {
  const s = r.snapshot ?? {};
  const acts: any[] = Array.isArray(s.activities) ? s.activities : [];
  const actions: any[] = Array.isArray(s.actions) ? s.actions : [];
  const out = h("div", { class: "presentation-card", "data-ext": r.ext },
    h("div", { class: "q-title" }, `${r.ext} — ${owner(r.owner)} — revision ${r.revision}`),
    h("div", { class: "muted coalescing" }, `${r.delivered} delivered of ${r.sent} presentation/update frames sent; revisions ${r.revisions.join(", ")}; at ${fmtTime(r.at, origin)}`));
  if (s.status) out.appendChild(h("div", { class: `p-status state-${s.status.state}` }, h("span", { class: "badge" }, s.status.state), " ", s.status.label, s.status.detail ? " — " + s.status.detail : ""));
  if (acts.length > 0) {
    out.appendChild(h("div", { class: "section-title" }, "activities"));
    out.appendChild(h("ul", { class: "activities" }, ...acts.map((a) => h("li", { class: `activity state-${a.state}` }, h("span", { class: "badge" }, a.state), " ", a.label,
      a.detail ? h("span", { class: "muted" }, " — " + a.detail) : null, a.metrics ? jsonTree(a.metrics, 0) : null))));
  }
  if (s.collection) out.appendChild(collection(s.collection));
  if (actions.length > 0) {
    out.appendChild(h("div", { class: "section-title" }, "actions"));
    const res = h("div", { class: "command-result" });
    out.appendChild(h("div", { class: "p-actions" }, ...actions.map((a) => h("button", { type: "button", class: a.destructive ? "danger small" : "small",
      title: `${a.command} ${(a.arguments ?? []).join(" ")}`, onclick: async () => {
        try {
          const ans = await api.command(r.ext, a.command, a.arguments ?? []);
          replace(res, ans.error ? h("pre", { class: "call-error" }, ans.error.message) : jsonTree(ans.result ?? null, 2));
        } catch (e) {
          replace(res, h("pre", { class: "call-error" }, (e as Error).message));
        }
      } }, a.label)), res));
  }
  out.appendChild(h("details", {}, h("summary", {}, "snapshot JSON"), jsonTree(s, 3)));
  return out;
}

function collection(c: any): HTMLElement {
  const nodes: any[] = Array.isArray(c.nodes) ? c.nodes : [];
  const item = (n: any): HTMLElement => h("li", { class: n.id === c.selected ? "selected" : "" }, n.state ? h("span", { class: "badge" }, n.state) : null, " ", n.label);
  let body: HTMLElement;
  if (c.kind === "tree") {
    const kids = new Map<string, any[]>();
    for (const n of nodes) {
      const p = n.parent ?? "";
      kids.set(p, [...(kids.get(p) ?? []), n]);
    }
    const build = (parent: string, depth: number): HTMLElement => h("ul", { class: "tree" }, ...(kids.get(parent) ?? []).map((n) => {
      const li = item(n);
      if (depth < 64 && kids.has(n.id)) li.appendChild(build(n.id, depth + 1));
      return li;
    }));
    body = build("", 0);
  } else {
    body = h("ul", { class: "list" }, ...nodes.map(item));
  }
  return h("div", { class: "collection" }, h("div", { class: "section-title" }, c.kind), body,
    c.detail ? h("div", { class: "detail" }, jsonTree(c.detail, 2)) : null);
}
