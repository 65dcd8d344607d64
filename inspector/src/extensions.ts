// The sidebar: each extension's state, generation and pid, negotiated API version and
// features, failures and restarts, last error and the tail of its stderr, and what it asks
// for: its permissions and whether the sandbox enforces them (docs/sandbox.md#consent).

import type { ExtensionState } from "./api.js";
import { h, replace } from "./dom.js";

export function renderExtensions(el: HTMLElement, exts: ExtensionState[], selected: string, select: (name: string) => void): void {
  replace(el, ...exts.map((e) => h("div", { class: `ext-card state-${e.state}` + (e.name === selected ? " selected" : ""), "data-ext": e.name,
    onclick: () => select(e.name) },
  h("div", { class: "ext-name" }, e.name, " ", h("span", { class: `badge state state-${e.state}` }, e.state)),
  h("div", { class: "muted" }, `generation ${e.generation}${e.pid ? ` · pid ${e.pid}` : ""} · API ${e.api_version ?? "?"}`),
  h("div", { class: "muted" }, `restarts ${e.restarts} · failures ${e.failures} · pending ${e.pending}`),
  e.last_error ? h("div", { class: "call-error" }, e.last_error) : null,
  consent(e),
  h("details", {}, h("summary", {}, `features (${(e.features ?? []).length})`), h("ul", { class: "features" }, ...(e.features ?? []).map((f) => h("li", {}, f)))),
  h("details", {}, h("summary", {}, `stderr tail (${e.stderr_tail.length} lines)`), h("pre", { class: "stderr" }, e.stderr_tail.join("\n"))),
  h("div", { class: "muted dir" }, e.dir))));
}

/** The consent line: a sandbox badge (on, or off by the operator's opt-out) and the permissions. */
function consent(e: ExtensionState): HTMLElement | null {
  if (e.sandbox === undefined && e.permissions === undefined) return null;
  const on = e.sandbox?.startsWith("enforced") ?? false;
  const policy = on ? (e.sandbox ?? "").replace(/^enforced: /, "") : "";
  return h("div", { class: "consent" },
    h("span", { class: `badge sandbox ${on ? "sandbox-on" : "sandbox-off"}`, title: e.sandbox ?? "" }, on ? "sandboxed" : "sandbox off"),
    on ? h("span", { class: "muted policy" }, " ", policy) : h("span", { class: "call-error" }, " runs unconfined (operator opt-out)"),
    e.permissions ? h("div", { class: "muted permissions" }, "asks for: ", e.permissions) : null);
}
