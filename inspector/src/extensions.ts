// The sidebar: each extension's state, generation and pid, negotiated API version and
// features, failures and restarts, last error and the tail of its stderr.

import type { ExtensionState } from "./api.js";
import { h, replace } from "./dom.js";

export function renderExtensions(el: HTMLElement, exts: ExtensionState[], selected: string, select: (name: string) => void): void {
  replace(el, ...exts.map((e) => h("div", { class: `ext-card state-${e.state}` + (e.name === selected ? " selected" : ""), "data-ext": e.name,
    onclick: () => select(e.name) },
  h("div", { class: "ext-name" }, e.name, " ", h("span", { class: `badge state state-${e.state}` }, e.state)),
  h("div", { class: "muted" }, `generation ${e.generation}${e.pid ? ` · pid ${e.pid}` : ""} · API ${e.api_version ?? "?"}`),
  h("div", { class: "muted" }, `restarts ${e.restarts} · failures ${e.failures} · pending ${e.pending}`),
  e.last_error ? h("div", { class: "call-error" }, e.last_error) : null,
  h("details", {}, h("summary", {}, `features (${(e.features ?? []).length})`), h("ul", { class: "features" }, ...(e.features ?? []).map((f) => h("li", {}, f)))),
  h("details", {}, h("summary", {}, `stderr tail (${e.stderr_tail.length} lines)`), h("pre", { class: "stderr" }, e.stderr_tail.join("\n"))),
  h("div", { class: "muted dir" }, e.dir))));
}
