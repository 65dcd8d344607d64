// The Tools view of one extension: its tools (a form from each parameters schema, a raw
// JSON mode, the result rendered), its commands (run with arguments) and its hooks.

import { api, type ExtensionState, type JSONObject } from "./api.js";
import { h, replace } from "./dom.js";
import { toolForm, type ToolForm } from "./form.js";
import { jsonTree, renderResult } from "./render.js";

interface ToolPane {
  form: ToolForm;
  el: HTMLElement;
}

export class ToolsView {
  el = h("div", { class: "tools-view" });
  private panes = new Map<string, ToolPane>();
  private selected = new Map<string, string>(); // extension -> selected tool

  render(ext: ExtensionState | undefined): void {
    if (!ext) {
      replace(this.el, h("p", { class: "muted" }, "No extension."));
      return;
    }
    const tools = [...ext.tool_definitions].sort((a, b) => a.name.localeCompare(b.name));
    let sel = this.selected.get(ext.name);
    if (!sel || !tools.some((t) => t.name === sel)) sel = tools[0]?.name;
    const list = h("ul", { class: "tool-list" }, ...tools.map((t) =>
      h("li", {}, h("button", { type: "button", id: `tool-${t.name}`, class: t.name === sel ? "tool-btn selected" : "tool-btn", title: t.description,
        onclick: () => { this.selected.set(ext.name, t.name); this.render(ext); } }, t.name))));
    const def = tools.find((t) => t.name === sel);
    let pane: HTMLElement = h("p", { class: "muted" }, "This extension has no tools.");
    if (def) {
      const key = `${ext.name}/${def.name}/${def.catalog_revision}/${JSON.stringify(def.parameters)}`;
      let p = this.panes.get(key);
      if (!p) {
        p = this.pane(ext.name, def.name, def.description, def.parameters, def.output_schema);
        this.panes.set(key, p);
      }
      pane = p.el;
    }
    replace(this.el,
      h("div", { class: "tools-split" }, h("div", { class: "tool-list-col" }, h("h3", {}, "Tools"), list), h("div", { class: "tool-pane-col" }, pane)),
      this.commands(ext), this.hooks(ext));
  }

  private pane(ext: string, tool: string, description: string, params: JSONObject, output?: JSONObject): ToolPane {
    const form = toolForm(tool, params);
    const result = h("div", { class: "call-result", id: `result-${tool}` });
    const button = h("button", { type: "submit", id: `call-${tool}`, class: "primary" }, "Call " + tool);
    const status = h("span", { class: "call-status muted" });
    // novalidate: the page's own checks speak (with the argument's pointer), not the
    // browser's bubbles, which would also keep a step="1" field from ever submitting 1.5.
    const el = h("form", { class: "tool-pane", "data-tool": tool, novalidate: true, onsubmit: async (ev: Event) => {
      ev.preventDefault();
      const args = form.collect();
      if (args === null) return;
      button.disabled = true;
      status.textContent = "calling…";
      try {
        const ans = await api.call(ext, tool, args);
        status.textContent = `${ans.duration_ms} ms`;
        if (ans.error) {
          replace(result, h("div", { class: "call-error" }, h("div", { class: "badge error" }, ans.error.code !== undefined ? `error ${ans.error.code}` : "error"),
            h("pre", {}, ans.error.message), ans.error.data !== undefined ? jsonTree(ans.error.data) : null));
        } else {
          replace(result, renderResult(ans.result));
        }
      } catch (e) {
        status.textContent = "";
        replace(result, h("div", { class: "call-error" }, h("pre", {}, (e as Error).message)));
      } finally {
        button.disabled = false;
      }
    } },
    h("h3", {}, tool), h("p", { class: "desc" }, description), form.el,
    h("div", { class: "actions" }, button, " ", status),
    output ? h("details", { class: "schema" }, h("summary", {}, "output_schema"), jsonTree(output, 4)) : null,
    h("details", { class: "schema" }, h("summary", {}, "parameters schema"), jsonTree(params, 4)),
    result);
    return { form, el };
  }

  private commands(ext: ExtensionState): HTMLElement {
    const cmds = ext.commands ?? [];
    return h("section", { class: "commands" }, h("h3", {}, "Commands"),
      cmds.length === 0 ? h("p", { class: "muted" }, "none") : h("ul", {}, ...cmds.map((c) => commandRow(ext.name, c))));
  }

  private hooks(ext: ExtensionState): HTMLElement {
    const hooks = ext.hooks ?? [];
    return h("section", { class: "hooks" }, h("h3", {}, "Hooks"),
      hooks.length === 0 ? h("p", { class: "muted" }, "none") : h("ul", {}, ...hooks.map((x) => h("li", {}, h("code", {}, x),
        x.endsWith("tool_call") ? h("span", { class: "muted" }, " — runs around every tool call from this page") : null))));
  }
}

export function commandRow(ext: string, name: string, args: string[] = []): HTMLElement {
  const input = h("input", { type: "text", placeholder: "arguments, space-separated", value: args.join(" ") });
  const out = h("div", { class: "command-result" });
  return h("li", { class: "command" }, h("code", {}, name), " ", input, " ",
    h("button", { type: "button", class: "small", onclick: async () => {
      const argv = input.value.trim() === "" ? [] : input.value.trim().split(/\s+/);
      try {
        const ans = await api.command(ext, name, argv);
        replace(out, ans.error ? h("pre", { class: "call-error" }, ans.error.message) : jsonTree(ans.result ?? null, 2));
      } catch (e) {
        replace(out, h("pre", { class: "call-error" }, (e as Error).message));
      }
    } }, "Run"), out);
}
