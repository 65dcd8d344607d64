// Frame decoding with the wire's rules that JSON.parse does not keep: a repeated key, a lone
// UTF-16 surrogate escape, and an integer written with a fraction or exponent (`1.0`, `1e0`)
// are told apart exactly as the Go and Python SDKs tell them (schema/README.md). JSON.parse
// stays the fast path; one pass over the text, jumping over strings with indexOf, decides
// whether the generated strict scanner has to look at the frame too.
import { MAX_JSON_DEPTH } from "./generated/limits.js";
import { parseStrictWithContext, StrictJSONError, type Ctx } from "./strictjson.js";

/**
 * Which numbers of decoded frames were written with a fraction or exponent, by parent object
 * and key. One map serves every frame: the keys are the frames' own objects, which the
 * garbage collector takes with the frames.
 */
const floats = new WeakMap<object, Set<string | number>>();

/** The exact integers beyond ±(2^53−1) of decoded frames, by parent object and key. */
const bigs = new WeakMap<object, Map<string | number, bigint>>();

/** The lexical context of every frame parseFrame returned, for the generated validators. */
export const wireCtx: Ctx = { floats, rootFloat: false, bigs, rootBig: undefined };

/**
 * The exact integer parent[key] was written as, when JSON.parse rounded it (an integer beyond
 * ±(2^53−1): 9007199254740993 reads as 9007199254740992); undefined for every other value.
 */
export function exactInteger(parent: object, key: string | number): bigint | undefined {
  return bigs.get(parent)?.get(key);
}

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
  tooDeep: number; // UTF-16 index of the first array or object past MAX_JSON_DEPTH, or -1
  longDigits: boolean; // a run of digits long enough to be beyond float64 (JSON.parse: Infinity)
  unsafeDigits: boolean; // a run of 16 digits or more: maybe an integer JSON.parse rounds
}

// An integer beyond float64 has at least 309 digits; one beyond 2^53−1 at least 16.
const LONG_DIGITS = 309;
const UNSAFE_DIGITS = 16;

function scan(text: string): Lexical {
  let keys = 0;
  let topKeys = 0;
  let floatLike = false;
  let depth = 0;
  let tooDeep = -1;
  let longDigits = false;
  let unsafeDigits = false;
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
        if (q < 0) return { keys, topKeys, floatLike, tooDeep, longDigits, unsafeDigits }; // JSON.parse accepted it, so unreachable
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
      if (++depth > MAX_JSON_DEPTH && tooDeep < 0) tooDeep = i;
    }
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2e) floatLike = true;
    else if (c === 0x65 || c === 0x45) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0x30 && p <= 0x39) floatLike = true; // 1e3, not the e of true/false
    }
    digits = c >= 0x30 && c <= 0x39 ? digits + 1 : 0;
    if (digits >= UNSAFE_DIGITS) {
      unsafeDigits = true;
      if (digits >= LONG_DIGITS) longDigits = true;
    }
    i++;
  }
  return { keys, topKeys, floatLike, tooDeep, longDigits, unsafeDigits };
}

/** The refusal of a frame nested past MAX_JSON_DEPTH, worded as in Go and Python. */
export function nestingMessage(text: string, at: number): string {
  const bytes = Buffer.byteLength(text.slice(0, at), "utf8");
  return `nesting deeper than ${String(MAX_JSON_DEPTH)} levels (MAX_JSON_DEPTH) at byte ${String(bytes)}`;
}

/** Index just past the string whose opening quote is at i (text.length when unterminated). */
function stringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let b = q - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/**
 * The outermost object's scalar members of a frame nested too deep to decode (containers
 * are left out), so its request can still be answered; undefined when it is not an object.
 */
function envelopeOnly(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith("{")) return undefined;
  const out: Record<string, unknown> = {};
  let depth = 0;
  let key: string | undefined;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (depth === 1 && key === undefined && start < 0) {
        try {
          key = JSON.parse(text.slice(i, end)) as string;
        } catch {
          return undefined;
        }
      }
      i = end - 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    if (depth > 1) continue;
    if (c === 0x3a && depth === 1) start = i + 1;
    else if ((c === 0x2c && depth === 1) || (c === 0x7d && depth === 0)) {
      if (key !== undefined && start >= 0) {
        const raw = text.slice(start, i).trim();
        if (!raw.startsWith("{") && !raw.startsWith("[")) {
          try {
            out[key] = JSON.parse(raw) as unknown;
          } catch {
            return undefined;
          }
        }
      }
      key = undefined;
      start = -1;
      if (depth === 0) break;
    }
  }
  return out;
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

/** Copy the strict scanner's float and big-integer marks of value's objects into the shared maps. */
function adopt(value: unknown, ctx: Ctx): void {
  if (typeof value !== "object" || value === null) return;
  const marks = ctx.floats.get(value);
  if (marks !== undefined) floats.set(value, marks);
  const exact = ctx.bigs.get(value);
  if (exact !== undefined) bigs.set(value, exact);
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
  const lex = scan(text);
  // Counted before JSON.parse builds anything, as Go and Python count it: a frame past the
  // bound carries only its envelope's scalars (enough to answer it) to the caller.
  if (lex.tooDeep >= 0) throw new WireRuleError(nestingMessage(text, lex.tooDeep), envelopeOnly(text), false);
  const value: unknown = JSON.parse(text);
  const surrogate = text.includes("\\ud") || text.includes("\\uD");
  if (!lex.floatLike && !lex.unsafeDigits && !surrogate && lex.keys === countKeys(value)) return value;
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
