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
