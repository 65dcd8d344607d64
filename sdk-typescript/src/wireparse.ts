// Frame decoding with the wire's rules that JSON.parse does not keep: a repeated key, a lone
// UTF-16 surrogate escape, and an integer written with a fraction or exponent (`1.0`, `1e0`)
// are told apart exactly as the Go and Python SDKs tell them (schema/README.md). JSON.parse
// stays the fast path; one pass over the text, jumping over strings with indexOf, decides
// whether the generated strict scanner has to look at the frame too.
import { parseStrictWithContext, StrictJSONError, type Ctx } from "./generated/runtime.js";

/**
 * Which numbers of decoded frames were written with a fraction or exponent, by parent object
 * and key. One map serves every frame: the keys are the frames' own objects, which the
 * garbage collector takes with the frames.
 */
const floats = new WeakMap<object, Set<string | number>>();

/** The lexical context of every frame parseFrame returned, for the generated validators. */
export const wireCtx: Ctx = { floats, rootFloat: false };

/** Whether parent[key] was written with a fraction or exponent (so it is not an integer). */
export function writtenAsFloat(parent: object, key: string | number): boolean {
  return floats.get(parent)?.has(key) === true;
}

/** A frame that is JSON but breaks a wire rule; `envelope` when the outermost object repeats a key. */
export class WireRuleError extends Error {
  override name = "WireRuleError";
  constructor(
    message: string,
    readonly value: unknown,
    readonly envelope: boolean,
  ) {
    super(message);
  }
}

interface Lexical {
  keys: number; // members of every object (colons outside strings)
  topKeys: number; // members of the outermost object
  floatLike: boolean; // a '.' or an exponent outside strings
  deep: boolean; // brackets nested beyond the strict scanner's depth bound (it decides)
  longDigits: boolean; // a run of digits long enough to be beyond float64 (JSON.parse: Infinity)
}

// A bracket count past which the strict scanner, which bounds nesting, has to decide.
const DEPTH_BOUND = 256;
// An integer beyond float64 has at least 309 digits.
const LONG_DIGITS = 309;

function scan(text: string): Lexical {
  let keys = 0;
  let topKeys = 0;
  let floatLike = false;
  let depth = 0;
  let deep = false;
  let longDigits = false;
  let digits = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: the first one not escaped by an odd run of backslashes.
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) return { keys, topKeys, floatLike, deep, longDigits }; // JSON.parse accepted it, so unreachable
        let b = q - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        if ((q - 1 - b) % 2 === 0) {
          i = q + 1;
          break;
        }
        from = q + 1;
      }
      continue;
    }
    if (c === 0x3a) {
      keys++;
      if (depth === 1) topKeys++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > DEPTH_BOUND) deep = true;
    }
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2e) floatLike = true;
    else if (c === 0x65 || c === 0x45) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0x30 && p <= 0x39) floatLike = true; // 1e3, not the e of true/false
    }
    digits = c >= 0x30 && c <= 0x39 ? digits + 1 : 0;
    if (digits >= LONG_DIGITS) longDigits = true;
    i++;
  }
  return { keys, topKeys, floatLike, deep, longDigits };
}

function countKeys(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const item of value) n += countKeys(item);
    return n;
  }
  for (const key in value) {
    n += 1 + countKeys((value as Record<string, unknown>)[key]);
  }
  return n;
}

/** Copy the strict scanner's float marks of value's objects into the shared map. */
function adopt(value: unknown, ctx: Ctx): void {
  if (typeof value !== "object" || value === null) return;
  const marks = ctx.floats.get(value);
  if (marks !== undefined) floats.set(value, marks);
  if (Array.isArray(value)) {
    for (const item of value) adopt(item, ctx);
  } else {
    for (const key in value) adopt((value as Record<string, unknown>)[key], ctx);
  }
}

/**
 * Decode one frame. Throws SyntaxError when the text is not JSON, and WireRuleError (with the
 * leniently decoded value) when it is JSON that breaks a wire rule.
 */
export function parseFrame(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const lex = scan(text);
  const surrogate = text.includes("\\ud") || text.includes("\\uD");
  if (!lex.floatLike && !lex.deep && !lex.longDigits && !surrogate && lex.keys === countKeys(value)) return value;
  let strict: { value: unknown; ctx: Ctx };
  try {
    strict = parseStrictWithContext(text);
  } catch (err) {
    if (!(err instanceof StrictJSONError)) throw err;
    const top = typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value).length : lex.topKeys;
    throw new WireRuleError(err.message, value, lex.topKeys !== top);
  }
  adopt(strict.value, strict.ctx);
  return strict.value;
}
