// Applicator keywords: subschemas applied to the instance itself (allOf, anyOf, oneOf, not,
// if/then/else, dependentSchemas) or to its members (properties, patternProperties,
// additionalProperties, propertyNames, prefixItems, items, contains), and the unevaluated*
// keywords, which read the annotations of the others. anyOf, oneOf and not report themselves;
// the rest report the faults of the subschema.
import type { KeywordContext } from "./keywords.js";
import { compilePattern } from "./pattern.js";
import { reasons } from "./reasons.js";
import { SchemaError } from "./refs.js";
import { Evaluated, getter, quietly, report, type Check, type State } from "./state.js";
import { escapeToken } from "./pointer.js";

export interface ApplicatorContext extends KeywordContext {
  /** Compile the subschema at `<this schema>/<path>`. */
  sub(path: string, raw: unknown): Check;
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function schemaArray(ctx: ApplicatorContext, kw: string): Check[] | undefined {
  const v = ctx.raw[kw];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0) throw new SchemaError(ctx.at(kw), `${kw} must be a non-empty array of schemas`);
  return v.map((s, i) => ctx.sub(`${kw}/${i}`, s));
}

function schemaMap(ctx: ApplicatorContext, kw: string): [string, Check][] | undefined {
  const v = ctx.raw[kw];
  if (v === undefined) return undefined;
  if (!isObj(v)) throw new SchemaError(ctx.at(kw), `${kw} must be an object of schemas`);
  return Object.entries(v).map(([name, s]) => [name, ctx.sub(`${kw}/${escapeToken(name)}`, s)]);
}

/**
 * Apply a member's subschema. A literal `false` under additionalProperties, items and the
 * unevaluated* keywords reports that keyword at the container, once per rejected member.
 */
function member(check: Check, isFalse: boolean, kw: string, at: string, why: (k: string | number) => string) {
  return (v: unknown, parent: object, key: string | number, st: State): boolean => {
    if (isFalse) {
      if (st.out !== null) report(st, kw, at, why(key));
      return false;
    }
    // The path is only read for faults; out is the same after the call as before it.
    if (st.out === null) return check(v, parent, key, st, null);
    st.path.push(key);
    const ok = check(v, parent, key, st, null);
    st.path.pop();
    return ok;
  };
}

function inPlace(ctx: ApplicatorContext): Check[] {
  const out: Check[] = [];
  const all = schemaArray(ctx, "allOf");
  if (all !== undefined) {
    out.push((v, p, k, st, ev) => {
      let ok = true;
      for (const c of all) if (!c(v, p, k, st, ev)) {
        ok = false;
        if (st.out === null) return false;
      }
      return ok;
    });
  }
  const any = schemaArray(ctx, "anyOf");
  if (any !== undefined) {
    const at = ctx.at("anyOf");
    out.push((v, p, k, st, ev) => {
      let ok = false;
      for (const c of any) {
        const mine = ev === null ? null : new Evaluated();
        if (quietly(c, v, p, k, st, mine)) {
          ok = true;
          if (ev === null) return true; // annotations wanted: every branch must be evaluated
          ev.merge(mine!);
        }
      }
      if (!ok && st.out !== null) report(st, "anyOf", at, reasons.anyOf());
      return ok;
    });
  }
  const one = schemaArray(ctx, "oneOf");
  if (one !== undefined) {
    const at = ctx.at("oneOf");
    out.push((v, p, k, st, ev) => {
      let first = -1;
      let second = -1;
      let won: Evaluated | null = null;
      // Collecting faults for unevaluated*, every passing branch counts, as in the oracle.
      const all = ev !== null && st.out !== null ? new Evaluated() : null;
      for (let i = 0; i < one.length; i++) {
        const mine = ev === null ? null : new Evaluated();
        if (!quietly(one[i]!, v, p, k, st, mine)) continue;
        if (all !== null) all.merge(mine!);
        if (first < 0) {
          first = i;
          won = mine;
        } else if (second < 0) {
          second = i;
          if (all === null) break;
        }
      }
      if (first >= 0 && second < 0) {
        if (ev !== null) ev.merge(won!);
        return true;
      }
      if (all !== null) ev!.merge(all);
      if (st.out !== null) report(st, "oneOf", at, reasons.oneOf(first < 0 ? [] : [first, second]));
      return false;
    });
  }
  if (ctx.raw["not"] !== undefined) {
    const not = ctx.sub("not", ctx.raw["not"]);
    const at = ctx.at("not");
    out.push((v, p, k, st, ev) => {
      // Collecting faults for unevaluated*, a matching not schema's annotations count, as in the oracle.
      const mine = ev !== null && st.out !== null ? new Evaluated() : null;
      if (!quietly(not, v, p, k, st, mine)) return true;
      if (st.out !== null) {
        if (mine !== null) ev!.merge(mine);
        report(st, "not", at, reasons.not());
      }
      return false;
    });
  }
  if (ctx.raw["if"] !== undefined) {
    const cond = ctx.sub("if", ctx.raw["if"]);
    const then = ctx.raw["then"] === undefined ? null : ctx.sub("then", ctx.raw["then"]);
    const otherwise = ctx.raw["else"] === undefined ? null : ctx.sub("else", ctx.raw["else"]);
    if (then !== null || otherwise !== null) {
      out.push((v, p, k, st, ev) => {
        const mine = ev === null ? null : new Evaluated();
        if (quietly(cond, v, p, k, st, mine)) {
          if (ev !== null) ev.merge(mine!);
          return then === null || then(v, p, k, st, ev);
        }
        return otherwise === null || otherwise(v, p, k, st, ev);
      });
    } else {
      // `if` alone asserts nothing, but its annotations count for unevaluated* when it holds.
      out.push((v, p, k, st, ev) => {
        if (ev === null) return true;
        const mine = new Evaluated();
        if (quietly(cond, v, p, k, st, mine)) ev.merge(mine);
        return true;
      });
    }
  } else {
    for (const kw of ["then", "else"]) if (ctx.raw[kw] !== undefined) ctx.sub(kw, ctx.raw[kw]); // still compiled: refused if bad
  }
  const deps = schemaMap(ctx, "dependentSchemas");
  if (deps !== undefined) {
    out.push((v, p, k, st, ev) => {
      if (!isObj(v)) return true;
      let ok = true;
      for (const [name, c] of deps) {
        if (!own(v, name) || c(v, p, k, st, ev)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      return ok;
    });
  }
  return out;
}

function objectMembers(ctx: ApplicatorContext): Check[] {
  const out: Check[] = [];
  const props = schemaMap(ctx, "properties");
  const patterns = schemaMap(ctx, "patternProperties")?.map(
    ([source, c]) => [compilePattern(source, `${ctx.at("patternProperties")}/${escapeToken(source)}`), member(c, false, "", "", reasons.false)] as const,
  );
  const names = new Set(props?.map(([n]) => n) ?? []);
  const extra = ctx.raw["additionalProperties"];
  const extraCheck =
    extra === undefined ? null : member(ctx.sub("additionalProperties", extra), extra === false, "additionalProperties", ctx.at("additionalProperties"), (k) => reasons.additionalProperties(String(k)));
  if (props !== undefined && extraCheck !== null && patterns === undefined) {
    // The common tool schema (properties plus additionalProperties): one pass over the members.
    const index = new Map(props.map(([name], i) => [name, i]));
    const checks = props.map(([, c]) => member(c, false, "", "", reasons.false));
    out.push((v, _p, _k, st, ev) => {
      if (!isObj(v)) return true;
      let ok = true;
      for (const name in v) {
        if (ev !== null) ev.prop(name);
        const i = index.get(name);
        if ((i === undefined ? extraCheck : checks[i]!)(v[name], v, name, st)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      return ok;
    });
    return [...out, ...propertyNames(ctx)];
  }
  if (props !== undefined) {
    const keys = props.map(([name]) => name);
    const gets = keys.map(getter);
    const checks = props.map(([, c]) => member(c, false, "", "", reasons.false));
    const n = keys.length;
    out.push((v, _p, _k, st, ev) => {
      if (!isObj(v)) return true;
      let ok = true;
      for (let i = 0; i < n; i++) {
        const x = gets[i]!(v);
        if (x === undefined) continue;
        const name = keys[i]!;
        if (ev !== null) ev.prop(name);
        if (checks[i]!(x, v, name, st)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      return ok;
    });
  }
  if (patterns !== undefined) {
    out.push((v, _p, _k, st, ev) => {
      if (!isObj(v)) return true;
      let ok = true;
      for (const name in v) {
        for (const [re, c] of patterns) {
          if (!re.test(name)) continue;
          if (ev !== null) ev.prop(name);
          const good = c(v[name], v, name, st);
          if (good) continue;
          ok = false;
          if (st.out === null) return false;
        }
      }
      return ok;
    });
  }
  if (extraCheck !== null) {
    const c = extraCheck;
    const regexes = patterns?.map(([re]) => re) ?? [];
    const matched = (name: string): boolean => {
      if (names.has(name)) return true;
      for (const re of regexes) if (re.test(name)) return true;
      return false;
    };
    out.push((v, _p, _k, st, ev) => {
      if (!isObj(v)) return true;
      let ok = true;
      for (const name in v) {
        if (matched(name)) continue;
        if (ev !== null) ev.prop(name);
        if (c(v[name], v, name, st)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      return ok;
    });
  }
  return [...out, ...propertyNames(ctx)];
}

function propertyNames(ctx: ApplicatorContext): Check[] {
  const out: Check[] = [];
  if (ctx.raw["propertyNames"] !== undefined) {
    const c = ctx.sub("propertyNames", ctx.raw["propertyNames"]);
    const at = ctx.at("propertyNames");
    out.push((v, _p, _k, st) => {
      if (!isObj(v)) return true;
      let ok = true;
      for (const name in v) {
        if (quietly(c, name, null, name, st, null)) continue;
        ok = false;
        if (st.out === null) return false;
        report(st, "propertyNames", at, reasons.propertyNames(name));
      }
      return ok;
    });
  }
  return out;
}

function arrayMembers(ctx: ApplicatorContext): Check[] {
  const out: Check[] = [];
  const prefix = schemaArray(ctx, "prefixItems");
  const rest = ctx.raw["items"];
  if (prefix !== undefined) {
    const checks = prefix.map((c) => member(c, false, "", "", reasons.false));
    out.push((v, _p, _k, st, ev) => {
      if (!Array.isArray(v)) return true;
      const n = Math.min(v.length, checks.length);
      if (ev !== null && n > ev.items) ev.items = n;
      let ok = true;
      for (let i = 0; i < n; i++) {
        if (checks[i]!(v[i], v, i, st)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      return ok;
    });
  }
  if (rest !== undefined) {
    const from = prefix?.length ?? 0;
    const c = member(ctx.sub("items", rest), rest === false, "items", ctx.at("items"), (i) => reasons.items(Number(i)));
    out.push((v, _p, _k, st, ev) => {
      if (!Array.isArray(v)) return true;
      if (ev !== null) ev.allItems = true;
      let ok = true;
      for (let i = from; i < v.length; i++) {
        if (c(v[i], v, i, st)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      return ok;
    });
  }
  if (ctx.raw["contains"] !== undefined) {
    const c = ctx.sub("contains", ctx.raw["contains"]);
    const min = ctx.raw["minContains"] === undefined ? 1 : (ctx.raw["minContains"] as number);
    const max = ctx.raw["maxContains"] as number | undefined;
    const atContains = ctx.at("contains");
    out.push((v, _p, _k, st, ev) => {
      if (!Array.isArray(v)) return true;
      let n = 0;
      for (let i = 0; i < v.length; i++) {
        const hit = quietly(c, v[i], v, i, st, null);
        if (!hit) continue;
        n++;
        if (ev !== null) ev.item(i);
        else if (max === undefined && n >= min) return true;
      }
      let ok = true;
      if (n < min) {
        ok = false;
        if (st.out !== null) {
          if (ctx.raw["minContains"] === undefined) report(st, "contains", atContains, reasons.contains());
          else report(st, "minContains", ctx.at("minContains"), reasons.minContains(min, n));
        }
      }
      if (max !== undefined && n > max) {
        ok = false;
        if (st.out !== null) report(st, "maxContains", ctx.at("maxContains"), reasons.maxContains(max, n));
      }
      return ok;
    });
  }
  return out;
}

/** Every applicator of the applicator vocabulary the schema object uses. */
export function compileApplicators(ctx: ApplicatorContext, applicator: boolean): Check[] {
  for (const kw of ["minContains", "maxContains"]) {
    const v = ctx.raw[kw];
    if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < 0)) throw new SchemaError(ctx.at(kw), `${kw} must be a non-negative integer`);
  }
  if (!applicator) return [];
  return [...inPlace(ctx), ...objectMembers(ctx), ...arrayMembers(ctx)];
}

/** unevaluatedProperties and unevaluatedItems: run last, over what no other keyword evaluated. */
export function compileUnevaluated(ctx: ApplicatorContext, unevaluated: boolean): Check[] {
  if (!unevaluated) return [];
  const out: Check[] = [];
  const props = ctx.raw["unevaluatedProperties"];
  if (props !== undefined) {
    const c = member(ctx.sub("unevaluatedProperties", props), props === false, "unevaluatedProperties", ctx.at("unevaluatedProperties"), (k) => reasons.unevaluatedProperties(String(k)));
    out.push((v, _p, _k, st, ev) => {
      if (!isObj(v)) return true;
      let ok = true;
      for (const name in v) {
        if (ev!.hasProp(name)) continue;
        if (c(v[name], v, name, st)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      if (ok) ev!.allProps = true;
      return ok;
    });
  }
  const items = ctx.raw["unevaluatedItems"];
  if (items !== undefined) {
    const c = member(ctx.sub("unevaluatedItems", items), items === false, "unevaluatedItems", ctx.at("unevaluatedItems"), (i) => reasons.unevaluatedItems(Number(i)));
    out.push((v, _p, _k, st, ev) => {
      if (!Array.isArray(v)) return true;
      let ok = true;
      for (let i = 0; i < v.length; i++) {
        if (ev!.hasItem(i)) continue;
        if (c(v[i], v, i, st)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      if (ok) ev!.allItems = true;
      return ok;
    });
  }
  return out;
}
