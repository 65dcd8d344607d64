// A form built from a tool's parameters schema (JSON Schema 2020-12, the subset tools
// use): strings (enum as a select), numbers and integers, booleans, nested objects and
// arrays; anything else (oneOf, anyOf, $ref, type lists) becomes a JSON box for that
// field. Every field checks its value before the call is sent and says what is wrong
// where (the JSON pointer of the argument), the way the host would.

import { h, replace } from "./dom.js";
import type { JSONObject, JSONValue } from "./api.js";

export interface Problem {
  pointer: string;
  message: string;
}

interface Field {
  el: HTMLElement;
  // read returns the value (undefined: left empty) and adds the problems it found.
  read(problems: Problem[]): JSONValue | undefined;
}

type Schema = JSONObject;

function str(s: Schema, k: string): string | undefined {
  const v = s[k];
  return typeof v === "string" ? v : undefined;
}

function num(s: Schema, k: string): number | undefined {
  const v = s[k];
  return typeof v === "number" ? v : undefined;
}

function typeOf(s: Schema): string | undefined {
  const t = s["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t)) {
    const nonNull = t.filter((x) => x !== "null");
    if (nonNull.length === 1 && typeof nonNull[0] === "string") return nonNull[0];
  }
  if (s["properties"] !== undefined) return "object";
  return undefined;
}

// checkCommon applies the keywords every type shares (enum, const).
function checkCommon(s: Schema, v: JSONValue, pointer: string, problems: Problem[]): void {
  const en = s["enum"];
  if (Array.isArray(en) && !en.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    problems.push({ pointer, message: `must be one of ${en.map((e) => JSON.stringify(e)).join(", ")}` });
  }
  if ("const" in s && JSON.stringify(s["const"]) !== JSON.stringify(v)) {
    problems.push({ pointer, message: `must be ${JSON.stringify(s["const"])}` });
  }
}

function label(name: string, s: Schema, required: boolean): HTMLElement {
  const desc = str(s, "description");
  return h("span", { class: "label" }, name, required ? h("span", { class: "req", title: "required" }, "*") : null,
    desc ? h("span", { class: "desc" }, " — " + desc) : null);
}

// enumField is a select of the enum's values (of any type); an option's value is the
// value's JSON, so the choice is exact.
function enumField(s: Schema, en: JSONValue[], pointer: string, id: string): Field {
  const sel = h("select", { id, "data-pointer": pointer }, h("option", { value: "" }, "—"),
    ...en.map((e) => h("option", { value: JSON.stringify(e) }, typeof e === "string" ? e : JSON.stringify(e))));
  if (s["default"] !== undefined) sel.value = JSON.stringify(s["default"]);
  return {
    el: sel,
    read(problems) {
      if (sel.value === "") return undefined;
      const v = JSON.parse(sel.value) as JSONValue;
      checkCommon(s, v, pointer, problems);
      return v;
    },
  };
}

function stringField(s: Schema, pointer: string, id: string): Field {
  const input = h("input", { id, type: "text", "data-pointer": pointer, placeholder: str(s, "format") ?? str(s, "pattern") ?? "" });
  const dflt = s["default"];
  if (typeof dflt === "string") input.value = dflt;
  return {
    el: input,
    read(problems) {
      if (input.value === "") return undefined;
      const v = input.value;
      const min = num(s, "minLength");
      const max = num(s, "maxLength");
      const len = [...v].length;
      if (min !== undefined && len < min) problems.push({ pointer, message: `must be at least ${min} characters` });
      if (max !== undefined && len > max) problems.push({ pointer, message: `must be at most ${max} characters` });
      const pat = str(s, "pattern");
      if (pat !== undefined) {
        try {
          if (!new RegExp(pat, "u").test(v)) problems.push({ pointer, message: `must match ${pat}` });
        } catch {
          // A pattern JavaScript cannot compile is left to the host to judge.
        }
      }
      checkCommon(s, v, pointer, problems);
      return v;
    },
  };
}

function numberField(s: Schema, pointer: string, id: string, integer: boolean): Field {
  const input = h("input", { id, type: "number", step: integer ? "1" : "any", "data-pointer": pointer });
  const dflt = s["default"];
  if (typeof dflt === "number") input.value = String(dflt);
  return {
    el: input,
    read(problems) {
      if (input.value.trim() === "") return undefined;
      const v = Number(input.value);
      if (!Number.isFinite(v)) {
        problems.push({ pointer, message: "must be a number" });
        return undefined;
      }
      if (integer && !Number.isInteger(v)) problems.push({ pointer, message: "must be an integer" });
      const min = num(s, "minimum");
      const max = num(s, "maximum");
      const xmin = num(s, "exclusiveMinimum");
      const xmax = num(s, "exclusiveMaximum");
      if (min !== undefined && v < min) problems.push({ pointer, message: `must be ≥ ${min}` });
      if (max !== undefined && v > max) problems.push({ pointer, message: `must be ≤ ${max}` });
      if (xmin !== undefined && v <= xmin) problems.push({ pointer, message: `must be > ${xmin}` });
      if (xmax !== undefined && v >= xmax) problems.push({ pointer, message: `must be < ${xmax}` });
      checkCommon(s, v, pointer, problems);
      return v;
    },
  };
}

function booleanField(s: Schema, pointer: string, id: string): Field {
  // Three states, so an optional boolean can be left out: unset, true, false.
  const sel = h("select", { id, "data-pointer": pointer }, h("option", { value: "" }, "—"), h("option", { value: "true" }, "true"),
    h("option", { value: "false" }, "false"));
  if (typeof s["default"] === "boolean") sel.value = String(s["default"]);
  return {
    el: sel,
    read() {
      return sel.value === "" ? undefined : sel.value === "true";
    },
  };
}

function jsonField(s: Schema, pointer: string, id: string): Field {
  const ta = h("textarea", { id, rows: 2, class: "json", "data-pointer": pointer, placeholder: "JSON" });
  return {
    el: ta,
    read(problems) {
      if (ta.value.trim() === "") return undefined;
      try {
        const v = JSON.parse(ta.value) as JSONValue;
        checkCommon(s, v, pointer, problems);
        return v;
      } catch (e) {
        problems.push({ pointer, message: "is not JSON: " + (e as Error).message });
        return undefined;
      }
    },
  };
}

function arrayField(s: Schema, pointer: string, id: string): Field {
  const items = (s["items"] && typeof s["items"] === "object" && !Array.isArray(s["items"]) ? s["items"] : {}) as Schema;
  const rows: { field: Field; row: HTMLElement; ptr: string }[] = [];
  const list = h("div", { class: "array" });
  const relabel = () => rows.forEach((r, i) => r.row.setAttribute("data-index", String(i)));
  const add = () => {
    const i = rows.length;
    const ptr = `${pointer}/${i}`;
    const field = fieldFor(items, ptr, `${id}-${i}`);
    const row = h("div", { class: "array-item" }, field.el,
      h("button", { type: "button", class: "small", onclick: () => {
        const k = rows.findIndex((r) => r.row === row);
        rows.splice(k, 1);
        row.remove();
        relabel();
      } }, "remove"));
    rows.push({ field, row, ptr });
    list.appendChild(row);
    relabel();
  };
  const el = h("div", { id, "data-pointer": pointer }, list, h("button", { type: "button", class: "small", onclick: add }, "+ item"));
  return {
    el,
    read(problems) {
      if (rows.length === 0) return undefined;
      // Items are re-pointed by their current index, so a removed row leaves no hole.
      const out: JSONValue[] = [];
      rows.forEach((r, i) => {
        const sub: Problem[] = [];
        const v = r.field.read(sub);
        for (const p of sub) problems.push({ pointer: `${pointer}/${i}${p.pointer.slice(r.ptr.length)}`, message: p.message });
        out.push(v === undefined ? null : v);
      });
      const min = num(s, "minItems");
      const max = num(s, "maxItems");
      if (min !== undefined && out.length < min) problems.push({ pointer, message: `must have at least ${min} items` });
      if (max !== undefined && out.length > max) problems.push({ pointer, message: `must have at most ${max} items` });
      return out;
    },
  };
}

function objectField(s: Schema, pointer: string, id: string): Field {
  const props = (s["properties"] ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s["required"]) ? (s["required"] as string[]) : []);
  const fields: [string, Field][] = [];
  const box = h("fieldset", { class: pointer === "" ? "object root" : "object", "data-pointer": pointer });
  for (const [name, ps] of Object.entries(props)) {
    const p = `${pointer}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const fid = `${id}-${name}`;
    const f = fieldFor(ps, p, fid);
    fields.push([name, f]);
    box.appendChild(h("label", { class: "field", for: fid, "data-name": name }, label(name, ps, required.has(name)), f.el,
      h("span", { class: "problem", "data-for": p })));
  }
  if (fields.length === 0 && s["additionalProperties"] !== false) {
    const f = jsonField({}, pointer, id + "-free");
    box.appendChild(h("label", { class: "field" }, h("span", { class: "label" }, "(free-form object)"), f.el));
    return { el: box, read: (problems) => f.read(problems) };
  }
  return {
    el: box,
    read(problems) {
      const out: JSONObject = {};
      for (const [name, f] of fields) {
        const v = f.read(problems);
        if (v !== undefined) out[name] = v;
        else if (required.has(name)) problems.push({ pointer: `${pointer}/${name}`, message: "is required" });
      }
      if (pointer !== "" && Object.keys(out).length === 0 && problems.length === 0) return undefined;
      return out;
    },
  };
}

function fieldFor(s: Schema, pointer: string, id: string): Field {
  const en = s["enum"];
  if (Array.isArray(en)) return enumField(s, en, pointer, id);
  switch (typeOf(s)) {
    case "string":
      return stringField(s, pointer, id);
    case "integer":
      return numberField(s, pointer, id, true);
    case "number":
      return numberField(s, pointer, id, false);
    case "boolean":
      return booleanField(s, pointer, id);
    case "array":
      return arrayField(s, pointer, id);
    case "object":
      return objectField(s, pointer, id);
  }
  return jsonField(s, pointer, id);
}

export interface ToolForm {
  el: HTMLElement;
  // collect returns the arguments, or null after showing the problems next to the fields.
  collect(): JSONObject | null;
}

// toolForm builds the form for a tool, with a switch to raw JSON (which is sent as typed,
// after a check that it is an object).
export function toolForm(tool: string, schema: Schema): ToolForm {
  const root = objectField(schema, "", "f-" + tool);
  const raw = h("textarea", { class: "json raw", rows: 8, id: "raw-" + tool, spellcheck: "false" });
  raw.value = "{}";
  const rawMode = h("input", { type: "checkbox", id: "rawmode-" + tool });
  const problemsBox = h("ul", { class: "problems", id: "problems-" + tool });
  const body = h("div", { class: "form-body" }, root.el);
  rawMode.addEventListener("change", () => {
    if (rawMode.checked) {
      const problems: Problem[] = [];
      const v = root.read(problems);
      raw.value = JSON.stringify(v ?? {}, null, 2);
      replace(body, raw);
    } else {
      replace(body, root.el);
    }
  });
  const el = h("div", { class: "tool-form" }, h("label", { class: "raw-toggle" }, rawMode, " raw JSON"), body, problemsBox);
  return {
    el,
    collect() {
      el.querySelectorAll(".problem").forEach((p) => (p.textContent = ""));
      replace(problemsBox);
      const problems: Problem[] = [];
      let v: JSONValue | undefined;
      if (rawMode.checked) {
        try {
          v = JSON.parse(raw.value) as JSONValue;
          if (v === null || typeof v !== "object" || Array.isArray(v)) problems.push({ pointer: "", message: "the arguments must be a JSON object" });
        } catch (e) {
          problems.push({ pointer: "", message: "is not JSON: " + (e as Error).message });
        }
      } else {
        v = root.read(problems);
      }
      if (problems.length > 0) {
        for (const p of problems) {
          problemsBox.appendChild(h("li", {}, h("code", {}, p.pointer || "/"), " ", p.message));
          const at = el.querySelector(`.problem[data-for="${CSS.escape(p.pointer)}"]`);
          if (at) at.textContent = p.message;
        }
        return null;
      }
      return (v ?? {}) as JSONObject;
    },
  };
}
