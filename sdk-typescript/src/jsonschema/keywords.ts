// Assertion keywords (validation vocabulary): each compiles its value once, refusing a value of
// the wrong type with the keyword's pointer, into a check of the instance.
import { canonicalKey, jsonEqual } from "./equal.js";
import { isMultipleOf } from "./decimal.js";
import { checkFormat } from "./formats.js";
import { compilePattern } from "./pattern.js";
import { reasons } from "./reasons.js";
import { SchemaError } from "./refs.js";
import { codePoints } from "../json.js";
import { getter, report, type Check, type ExactProbe, type State } from "./state.js";

/** What a keyword compiler gets: the schema object, the keyword's pointer, and options. */
export interface KeywordContext {
  readonly raw: Readonly<Record<string, unknown>>;
  /** Pointer of the keyword `kw` (for faults and compile errors). */
  at(kw: string): string;
  readonly assertFormat: boolean;
}

const TYPES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);

function nonNegativeInteger(ctx: KeywordContext, kw: string): number | undefined {
  const v = ctx.raw[kw];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new SchemaError(ctx.at(kw), `${kw} must be a non-negative integer`);
  return v;
}

function finiteNumber(ctx: KeywordContext, kw: string): number | bigint | undefined {
  const v = ctx.raw[kw];
  if (v === undefined) return undefined;
  if (typeof v === "bigint") return v; // an exact integer, as TypeScript authors write one beyond 2^53
  if (typeof v !== "number" || !Number.isFinite(v)) throw new SchemaError(ctx.at(kw), `${kw} must be a number`);
  return v;
}

function stringArray(ctx: KeywordContext, kw: string, v: unknown, at: string): readonly string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) throw new SchemaError(at, `${kw} must be an array of strings`);
  if (new Set(v).size !== v.length) throw new SchemaError(at, `${kw} must not repeat a name`);
  return v as string[];
}

/** The type a fault names for a value: every number is "number" (the contract's templates). */
function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "bigint" ? "number" : typeof v;
}

/**
 * The number to judge at parent[key]: the exact integer it was written as when JSON.parse
 * rounded it (st.exact), else the value itself; undefined for what is no number.
 */
function numberAt(v: unknown, parent: object | null, key: string | number, st: State): number | bigint | undefined {
  if (typeof v === "number") return (st.exact !== null ? st.exact(parent, key) : undefined) ?? v;
  return typeof v === "bigint" ? v : undefined;
}

function compileType(ctx: KeywordContext): Check | null {
  const t = ctx.raw["type"];
  if (t === undefined) return null;
  const names = typeof t === "string" ? [t] : t;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === "string" && TYPES.has(n)) || new Set(names).size !== names.length) {
    throw new SchemaError(ctx.at("type"), `type must be one of ${[...TYPES].join(", ")} or a non-empty array of them`);
  }
  const want = names as string[];
  const allows = (n: string) => want.includes(n);
  const [object, array, string, number, integer, boolean, nul] = ["object", "array", "string", "number", "integer", "boolean", "null"].map(allows);
  const at = ctx.at("type");
  return (v, _p, _k, st) => {
    let ok: boolean;
    if (typeof v === "string") ok = string!;
    else if (typeof v === "number") ok = number! || (integer! && Number.isInteger(v));
    else if (typeof v === "bigint") ok = number! || integer!;
    else if (typeof v === "boolean") ok = boolean!;
    else if (v === null) ok = nul!;
    else if (Array.isArray(v)) ok = array!;
    else ok = object!;
    if (!ok && st.out !== null) report(st, "type", at, reasons.type(want, typeName(v)));
    return ok;
  };
}

function compileConstEnum(ctx: KeywordContext): Check[] {
  const out: Check[] = [];
  if (Object.prototype.hasOwnProperty.call(ctx.raw, "const")) {
    const want = ctx.raw["const"];
    const at = ctx.at("const");
    out.push((v, p, k, st) => {
      if (jsonEqual(v, want, st.exact, p, k)) return true;
      if (st.out !== null) report(st, "const", at, reasons.const(want));
      return false;
    });
  }
  const values = ctx.raw["enum"];
  if (values !== undefined) {
    if (!Array.isArray(values)) throw new SchemaError(ctx.at("enum"), "enum must be an array");
    const at = ctx.at("enum");
    out.push((v, p, k, st) => {
      for (let i = 0; i < values.length; i++) if (jsonEqual(v, values[i], st.exact, p, k, values, i)) return true;
      if (st.out !== null) report(st, "enum", at, reasons.enum(values));
      return false;
    });
  }
  return out;
}

function compileNumeric(ctx: KeywordContext): Check[] {
  const out: Check[] = [];
  // number and bigint compare exactly with each other: 2^53+1 (a bigint) > 2^53.
  const bound = (kw: "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum", holds: (v: number | bigint, b: number | bigint) => boolean) => {
    const b = finiteNumber(ctx, kw);
    if (b === undefined) return;
    const at = ctx.at(kw);
    out.push((v, p, k, st) => {
      const x = numberAt(v, p, k, st);
      if (x === undefined || holds(x, b)) return true;
      if (st.out !== null) report(st, kw, at, reasons[kw](b, x));
      return false;
    });
  };
  bound("minimum", (v, b) => v >= b);
  bound("maximum", (v, b) => v <= b);
  bound("exclusiveMinimum", (v, b) => v > b);
  bound("exclusiveMaximum", (v, b) => v < b);
  const m = finiteNumber(ctx, "multipleOf");
  if (m !== undefined) {
    if (m <= 0) throw new SchemaError(ctx.at("multipleOf"), "multipleOf must be greater than 0");
    const at = ctx.at("multipleOf");
    out.push((v, p, k, st) => {
      const x = numberAt(v, p, k, st);
      if (x === undefined || isMultipleOf(x, m)) return true;
      if (st.out !== null) report(st, "multipleOf", at, reasons.multipleOf(m, x));
      return false;
    });
  }
  return out;
}

function compileString(ctx: KeywordContext): Check[] {
  const out: Check[] = [];
  const min = nonNegativeInteger(ctx, "minLength");
  const max = nonNegativeInteger(ctx, "maxLength");
  if (min !== undefined || max !== undefined) {
    const atMin = ctx.at("minLength");
    const atMax = ctx.at("maxLength");
    out.push((v, _p, _k, st) => {
      if (typeof v !== "string") return true;
      // v.length bounds the code points from above and from half below: count only when needed.
      if ((min === undefined || v.length >= 2 * min) && (max === undefined || v.length <= max)) return true;
      const n = codePoints(v);
      let ok = true;
      if (min !== undefined && n < min) {
        ok = false;
        if (st.out === null) return false;
        report(st, "minLength", atMin, reasons.minLength(min, n));
      }
      if (max !== undefined && n > max) {
        ok = false;
        if (st.out !== null) report(st, "maxLength", atMax, reasons.maxLength(max, n));
      }
      return ok;
    });
  }
  const pattern = ctx.raw["pattern"];
  if (pattern !== undefined) {
    if (typeof pattern !== "string") throw new SchemaError(ctx.at("pattern"), "pattern must be a string");
    const re = compilePattern(pattern, ctx.at("pattern"));
    const at = ctx.at("pattern");
    out.push((v, _p, _k, st) => {
      if (typeof v !== "string" || re.test(v)) return true;
      if (st.out !== null) report(st, "pattern", at, reasons.pattern(pattern));
      return false;
    });
  }
  const format = ctx.raw["format"];
  if (format !== undefined) {
    if (typeof format !== "string") throw new SchemaError(ctx.at("format"), "format must be a string");
    if (ctx.assertFormat) {
      const at = ctx.at("format");
      out.push((v, _p, _k, st) => {
        if (checkFormat(format, v)) return true;
        if (st.out !== null) report(st, "format", at, reasons.format(format));
        return false;
      });
    }
  }
  return out;
}

function compileArray(ctx: KeywordContext): Check[] {
  const out: Check[] = [];
  for (const kw of ["minItems", "maxItems"] as const) {
    const n = nonNegativeInteger(ctx, kw);
    if (n === undefined) continue;
    const at = ctx.at(kw);
    const min = kw === "minItems";
    out.push((v, _p, _k, st) => {
      if (!Array.isArray(v) || (min ? v.length >= n : v.length <= n)) return true;
      if (st.out !== null) report(st, kw, at, reasons[kw](n, v.length));
      return false;
    });
  }
  const unique = ctx.raw["uniqueItems"];
  if (unique !== undefined && typeof unique !== "boolean") throw new SchemaError(ctx.at("uniqueItems"), "uniqueItems must be a boolean");
  if (unique === true) {
    const at = ctx.at("uniqueItems");
    out.push((v, _p, _k, st) => {
      if (!Array.isArray(v) || v.length < 2) return true;
      const dup = firstDuplicate(v, st.exact);
      if (dup === null) return true;
      if (st.out !== null) report(st, "uniqueItems", at, reasons.uniqueItems(dup[0], dup[1]));
      return false;
    });
  }
  return out;
}

/** The first pair of equal items (i < k), or null. */
function firstDuplicate(items: readonly unknown[], exact: ExactProbe | null): [number, number] | null {
  if (items.length <= 16) {
    for (let k = 1; k < items.length; k++) for (let i = 0; i < k; i++) if (jsonEqual(items[i], items[k], exact, items, i, items, k)) return [i, k];
    return null;
  }
  const seen = new Map<string, number>();
  for (let k = 0; k < items.length; k++) {
    const key = canonicalKey(items[k], exact, items, k);
    const i = seen.get(key);
    if (i !== undefined) return [i, k];
    seen.set(key, k);
  }
  return null;
}

function compileObject(ctx: KeywordContext): Check[] {
  const out: Check[] = [];
  for (const kw of ["minProperties", "maxProperties"] as const) {
    const n = nonNegativeInteger(ctx, kw);
    if (n === undefined) continue;
    const at = ctx.at(kw);
    const min = kw === "minProperties";
    out.push((v, _p, _k, st) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return true;
      const count = Object.keys(v).length;
      if (min ? count >= n : count <= n) return true;
      if (st.out !== null) report(st, kw, at, reasons[kw](n, count));
      return false;
    });
  }
  const required = ctx.raw["required"];
  if (required !== undefined) {
    const names = stringArray(ctx, "required", required, ctx.at("required"));
    const at = ctx.at("required");
    const gets = names.map(getter);
    if (names.length > 0) {
      out.push((v, _p, _k, st) => {
        if (typeof v !== "object" || v === null || Array.isArray(v)) return true;
        let ok = true;
        for (let i = 0; i < names.length; i++) {
          if (gets[i]!(v as Record<string, unknown>) !== undefined) continue;
          const name = names[i]!;
          if (st.out === null) return false;
          ok = false;
          report(st, "required", at, reasons.required(name));
        }
        return ok;
      });
    }
  }
  const dependent = ctx.raw["dependentRequired"];
  if (dependent !== undefined) {
    if (typeof dependent !== "object" || dependent === null || Array.isArray(dependent)) throw new SchemaError(ctx.at("dependentRequired"), "dependentRequired must be an object");
    const rules = Object.entries(dependent).map(([name, list]) => [name, stringArray(ctx, "dependentRequired", list, `${ctx.at("dependentRequired")}/${name}`)] as const);
    const at = ctx.at("dependentRequired");
    out.push((v, _p, _k, st) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return true;
      let ok = true;
      for (const [because, names] of rules) {
        if (!Object.prototype.hasOwnProperty.call(v, because)) continue;
        for (const name of names) {
          if (Object.prototype.hasOwnProperty.call(v, name)) continue;
          if (st.out === null) return false;
          ok = false;
          report(st, "dependentRequired", `${at}/${because}`, reasons.dependentRequired(name, because));
        }
      }
      return ok;
    });
  }
  return out;
}

/**
 * The gate keywords type, const and enum, in that order: when one fails, it is the schema
 * object's only fault (its other keywords are not evaluated), as in the oracle.
 */
export function compileGates(ctx: KeywordContext, validation: boolean): Check[] {
  if (!validation) return [];
  const type = compileType(ctx);
  return [...(type === null ? [] : [type]), ...compileConstEnum(ctx)];
}

/** The other assertions of the validation vocabulary (and format) that the schema object uses. */
export function compileAssertions(ctx: KeywordContext, validation: boolean): Check[] {
  if (!validation) return [];
  return [...compileNumeric(ctx), ...compileString(ctx), ...compileArray(ctx), ...compileObject(ctx)];
}
