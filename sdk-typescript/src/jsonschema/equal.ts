import { compareCodePoints } from "./pointer.js";

// JSON equality and canonical text for const, enum and uniqueItems. JSON has one number type,
// so 1 and 1.0 are equal (JSON.parse already gives both the same double); true is never 1,
// and objects are equal when they hold the same keys with equal values in any order.

/** Whether a and b are the same JSON value. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const aArray = Array.isArray(a);
  if (aArray !== Array.isArray(b)) return false;
  if (aArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(y, key) || !jsonEqual(x[key], y[key])) return false;
  }
  return true;
}

/**
 * A text equal for equal JSON values and different otherwise (object keys sorted), so that
 * uniqueItems over long arrays is one Set instead of n² comparisons.
 */
export function canonicalKey(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalKey(obj[k])}`).join(",")}}`;
}

/**
 * A value as compact JSON for fault reasons, the same text in Go, Python and TypeScript: no
 * whitespace, object members sorted by key (by code point), strings escaping only `"`, `\` and
 * control characters, numbers as ECMAScript prints them (JSON.stringify's rules for scalars).
 */
export function compactJson(value: unknown): string {
  if (typeof value === "number") return String(value); // finite: what JSON.stringify prints
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(compactJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort(compareCodePoints);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${compactJson(obj[k])}`).join(",")}}`;
}
