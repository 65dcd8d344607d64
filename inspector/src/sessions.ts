// Recorded sessions from the state store: the list, and one session's exchange (time,
// direction, kind, method, round-trip, errors; each frame expands). With replay built in,
// a session can be replayed against the running extension's directory and the diff shown.

import { api, type RecordedEntry } from "./api.js";
import { h, replace } from "./dom.js";
import { renderDiff } from "./diff.js";
import { jsonTree } from "./render.js";

export class SessionsView {
  el = h("div", { class: "sessions-view" });
  private list = h("div", { class: "session-list" });
  private detail = h("div", { class: "session-detail" });
  replay = false;

  constructor() {
    this.el.append(h("div", { class: "toolbar" }, h("button", { type: "button", id: "sessions-refresh", onclick: () => void this.load() }, "Refresh")),
      h("div", { class: "sessions-split" }, this.list, this.detail));
  }

  async load(): Promise<void> {
    try {
      const { sessions } = await api.sessions();
      replace(this.list, sessions.length === 0 ? h("p", { class: "muted" }, "No recorded session.") : null,
        h("ul", {}, ...sessions.map((s) => h("li", {}, h("button", { type: "button", class: "session-btn", "data-session": s.session_id,
          onclick: () => void this.open(s.session_id) }, s.session_id), h("div", { class: "muted" }, `${s.extension} · ${s.frames} frames · ${s.started_at}`)))));
    } catch (e) {
      replace(this.list, h("pre", { class: "call-error" }, (e as Error).message));
    }
  }

  async open(id: string): Promise<void> {
    replace(this.detail, h("p", { class: "muted" }, "loading…"));
    try {
      const { entries } = await api.session(id);
      const diff = h("div", { class: "replay-diff" });
      replace(this.detail, h("h3", {}, id),
        this.replay ? h("button", { type: "button", id: "replay", onclick: async () => {
          replace(diff, h("p", { class: "muted" }, "replaying…"));
          try {
            replace(diff, renderDiff((await api.replay(id)).diff));
          } catch (e) {
            replace(diff, h("pre", { class: "call-error" }, (e as Error).message));
          }
        } }, "Replay against the extension") : h("p", { class: "muted" }, "Replay is not available in this octet-host."),
        diff,
        h("table", { class: "frames recorded", id: "recorded-frames" }, h("thead", {}, h("tr", {}, ...["#", "at", "dir", "kind", "method", "id", "ms", "error"].map((c) => h("th", {}, c)))),
          h("tbody", {}, ...entries.flatMap(row))));
    } catch (e) {
      replace(this.detail, h("pre", { class: "call-error" }, (e as Error).message));
    }
  }
}

function row(e: RecordedEntry): HTMLElement[] {
  const json = h("tr", { class: "frame-json", hidden: true }, h("td", { colspan: 8 }));
  const tr = h("tr", { class: `frame kind-${e.kind}`, onclick: () => {
    json.hidden = !json.hidden;
    const td = json.firstElementChild as HTMLElement;
    if (!json.hidden && !td.firstChild) {
      try {
        td.appendChild(jsonTree(JSON.parse(e.frame), 4));
      } catch {
        td.appendChild(h("pre", {}, e.frame));
      }
    }
  } },
  h("td", {}, e.seq), h("td", {}, e.at.replace(/^.*T/, "")), h("td", {}, e.direction), h("td", {}, e.kind), h("td", {}, e.method ?? ""),
  h("td", {}, e.id !== undefined ? JSON.stringify(e.id) : ""), h("td", {}, e.duration_ms ?? ""), h("td", {}, e.error ? `${e.error.code} ${e.error.message}` : ""));
  return [tr, json];
}
