// Strict JSON value types: every wire payload is one of these, never `any`.
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON-RPC id: an integer ≥ 0 or a non-empty string (wire.md §1). */
export type Id = number | string;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** UTF-8 byte length without allocating for the common short-ASCII case. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Number of Unicode code points ("chars" limits count these, not UTF-16 units). */
export function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/** The encoded size of a value as it would travel on the wire. */
export function encodedBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value) ?? "");
}

/** Deeper than this, withinBytes stops guessing and the caller measures exactly. */
const BOUND_DEPTH = 32;

/** The most bytes JSON.stringify writes for one finite double (see withinBytes). */
export const MAX_NUMBER_BYTES = 25;

/**
 * Whether value's JSON encoding is surely at most `limit` UTF-8 bytes, decided by a walk that
 * allocates nothing: each string is counted as if every UTF-16 unit were a six-byte \uXXXX
 * escape and each number as 25 bytes, an upper bound (the longest a double prints is a negative
 * one in fixed notation just above -1e-6 with 17 significant digits: -0.0000012345678901234567). False means "maybe larger" (or a value
 * the walk does not judge: a bigint, a class instance, toJSON, deep nesting, a cycle), and
 * the caller then measures exactly with encodedBytes, which also raises what JSON.stringify
 * raises. It spares the common small result a second JSON.stringify per call.
 */
export function withinBytes(value: unknown, limit: number): boolean {
  let budget = limit;
  const walk = (v: unknown, depth: number): boolean => {
    switch (typeof v) {
      case "string":
        budget -= 2 + 6 * v.length;
        return budget >= 0;
      case "number":
        budget -= MAX_NUMBER_BYTES;
        return budget >= 0;
      case "boolean":
      case "undefined":
        budget -= 5;
        return budget >= 0;
      case "object":
        break;
      default:
        return false; // bigint (JSON.stringify throws), function, symbol
    }
    if (v === null) {
      budget -= 4;
      return budget >= 0;
    }
    if (depth >= BOUND_DEPTH) return false;
    const proto = Object.getPrototypeOf(v) as unknown;
    if (Array.isArray(v)) {
      if (proto !== Array.prototype) return false;
      budget -= 2;
      for (const item of v) {
        budget -= 1;
        if (!walk(item, depth + 1)) return false;
      }
      return budget >= 0;
    }
    // Only plain objects: a boxed number, a Date or anything with toJSON encodes otherwise.
    if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === "function") return false;
    budget -= 2;
    for (const key in v) {
      budget -= 4 + 6 * key.length;
      if (!walk((v as Record<string, unknown>)[key], depth + 1)) return false;
    }
    return budget >= 0;
  };
  return walk(value, 0);
}
