// Strict JSON for the octet wire: a scanner that refuses duplicate keys, lone surrogates and
// NaN, and remembers which numbers were written with a fraction or exponent (so `1.0` is not
// an integer, as in Go and Python), plus the small checks the generated validators share.
// Hand-written: the generated *.check.ts modules import it; nothing here is schema-derived
// except MAX_JSON_DEPTH, which comes from the generated limits.
import { MAX_JSON_DEPTH } from "./generated/limits.js";

/** Thrown when text is not acceptable JSON on the octet wire. */
export class StrictJSONError extends Error {
  override name = "StrictJSONError";
}

/**
 * What the scanner knows beyond the value: which numbers were written with a fraction or an
 * exponent (by parent container and key), so integer checks match Go and Python exactly.
 */
export interface Ctx {
  readonly floats: WeakMap<object, Set<string | number>>;
  rootFloat: boolean;
  /**
   * The integers written beyond ±(2^53−1), which the value holds rounded to a number, as the
   * exact bigint of their text (by parent container and key), so a tool schema judges
   * 9007199254740993 as written, as Go and Python do.
   */
  readonly bigs: WeakMap<object, Map<string | number, bigint>>;
  rootBig: bigint | undefined;
}

/** A context for values that did not come from parseStrict (no lexical information). */
export function plainCtx(): Ctx {
  return { floats: new WeakMap(), rootFloat: false, bigs: new WeakMap(), rootBig: undefined };
}

const NESTING = "nesting deeper than " + String(MAX_JSON_DEPTH) + " levels (MAX_JSON_DEPTH)";
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** Parse one JSON document strictly; returns the value and its lexical context. */
export function parseStrictWithContext(text: string): { value: unknown; ctx: Ctx } {
  const ctx = plainCtx();
  let i = 0;
  const fail = (msg: string): never => {
    throw new StrictJSONError(msg + " at offset " + String(i));
  };
  const ws = (): void => {
    for (;;) {
      const ch = text.charCodeAt(i);
      if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) i++;
      else return;
    }
  };
  const markFloat = (parent: object | undefined, key: string | number): void => {
    if (parent === undefined) {
      ctx.rootFloat = true;
      return;
    }
    let set = ctx.floats.get(parent);
    if (set === undefined) {
      set = new Set();
      ctx.floats.set(parent, set);
    }
    set.add(key);
  };
  const markBig = (parent: object | undefined, key: string | number, exact: bigint): void => {
    if (parent === undefined) {
      ctx.rootBig = exact;
      return;
    }
    let map = ctx.bigs.get(parent);
    if (map === undefined) {
      map = new Map();
      ctx.bigs.set(parent, map);
    }
    map.set(key, exact);
  };
  const str = (): string => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const ch = text.charCodeAt(i);
      if (ch === 0x22) break;
      if (ch < 0x20) fail("control character in string");
      i += ch === 0x5c ? 2 : 1;
    }
    i++;
    let s: string;
    try {
      s = JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail("malformed string");
    }
    for (let j = 0; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = s.charCodeAt(j + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          j++;
          continue;
        }
        fail("lone UTF-16 surrogate");
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        fail("lone UTF-16 surrogate");
      }
    }
    return s;
  };
  const value = (parent: object | undefined, key: string | number, depth: number): unknown => {
    ws();
    const ch = text[i];
    // depth counts the arrays and objects around this value; opening one more must stay
    // within MAX_JSON_DEPTH, checked before anything of it is built.
    if ((ch === "{" || ch === "[") && depth >= MAX_JSON_DEPTH) fail(NESTING);
    if (ch === "{") {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a string key");
        const k = str();
        if (Object.prototype.hasOwnProperty.call(o, k)) fail("duplicate key " + JSON.stringify(k));
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        const v = value(o, k, depth + 1);
        Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return o;
        }
        fail("expected ',' or '}'");
      }
    }
    if (ch === "[") {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(a, a.length, depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return a;
        }
        fail("expected ',' or ']'");
      }
    }
    if (ch === '"') return str();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) return fail("unexpected character");
    const tok = m[0];
    i += tok.length;
    const float = /[.eE]/.test(tok);
    if (float) markFloat(parent, key);
    const n = Number(tok);
    if (!Number.isFinite(n)) fail("number beyond the range of a 64-bit float");
    if (!float && !Number.isSafeInteger(n)) markBig(parent, key, BigInt(tok));
    return n;
  };
  const v = value(undefined, "", 0);
  ws();
  if (i !== text.length) fail("unexpected data after the JSON value");
  return { value: v, ctx };
}

/** Parse one JSON document strictly (duplicate keys, lone surrogates refused). */
export function parseStrict(text: string): unknown {
  return parseStrictWithContext(text).value;
}

/** @internal */
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** @internal */
export function has(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** @internal An integer on our wire: safe, and not written with a fraction or exponent. */
export function isInt(v: number, c: Ctx, o: object | undefined, k: string | number | undefined): boolean {
  if (!Number.isSafeInteger(v)) return false;
  if (o === undefined) return !c.rootFloat;
  return !(k !== undefined && c.floats.get(o)?.has(k) === true);
}

/** @internal Length in code points (what maxLength counts). */
export function cpLen(s: string): number {
  let n = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c >= 0xd800 && c <= 0xdbff && j + 1 < s.length) {
      const d = s.charCodeAt(j + 1);
      if (d >= 0xdc00 && d <= 0xdfff) j++;
    }
    n++;
  }
  return n;
}

/** @internal Length in UTF-8 bytes. */
export function utf8Len(s: string): number {
  let n = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && j + 1 < s.length) {
      n += 4;
      j++;
    } else n += 3;
  }
  return n;
}

/** @internal */
export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** @internal */
export function wantString(v: unknown, p: string, e: string[]): void {
  if (typeof v !== "string") e.push(p + ": want string, got " + kindOf(v));
}

/** @internal */
export function wantBoolean(v: unknown, p: string, e: string[]): void {
  if (typeof v !== "boolean") e.push(p + ": want boolean, got " + kindOf(v));
}

/** @internal */
export function wantNumber(v: unknown, p: string, e: string[]): void {
  if (typeof v !== "number") e.push(p + ": want number, got " + kindOf(v));
}

/** @internal */
export function wantInt(v: unknown, p: string, e: string[], c: Ctx, o: object | undefined, k: string | number | undefined): void {
  if (typeof v !== "number" || !isInt(v, c, o, k)) e.push(p + ": want integer, got " + kindOf(v));
}

/** @internal */
export function wantObject(v: unknown, p: string, e: string[]): void {
  if (!isObj(v)) e.push(p + ": want object, got " + kindOf(v));
}

/** @internal */
export function hasDuplicate(a: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const x of a) {
    const key = typeof x + ":" + String(x);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}
