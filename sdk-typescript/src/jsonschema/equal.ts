import { compareCodePoints } from "./pointer.js";
import type { ExactProbe } from "./state.js";

// JSON equality and canonical text for const, enum and uniqueItems. JSON has one number type,
// so 1 and 1.0 are equal (JSON.parse already gives both the same double); true is never 1,
// and objects are equal when they hold the same keys with equal values in any order.

/**
 * Whether a and b are the same JSON value. A bigint is an exact integer (a schema's, or one
 * `exact` gives for a number JSON.parse rounded): 2^53+1 is not 2^53, although JSON.parse
 * reads both as 2^53. `exact` is asked about a's and b's own places (parent and key) only when
 * they have one: a value without a parent is the instance itself for a, a schema's for b.
 */
export function jsonEqual(
  a: unknown,
  b: unknown,
  exact: ExactProbe | null = null,
  pa: object | null = null,
  ka: string | number = "",
  pb: object | null = null,
  kb: string | number = "",
): boolean {
  if (exact !== null) {
    if (typeof a === "number") a = exact(pa, ka) ?? a;
    if (typeof b === "number" && pb !== null) b = exact(pb, kb) ?? b;
  }
  if (typeof a === "bigint" || typeof b === "bigint") {
    // Loose equality between a bigint and a number compares their exact values.
    return (typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint") && a == b;
  }
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const aArray = Array.isArray(a);
  if (aArray !== Array.isArray(b)) return false;
  if (aArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i], exact, x, i, y, i)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(y, key) || !jsonEqual(x[key], y[key], exact, x, key, y, key)) return false;
  }
  return true;
}

/**
 * A text equal for equal JSON values and different otherwise (object keys sorted), so that
 * uniqueItems over long arrays is one Set instead of n² comparisons.
 */
export function canonicalKey(value: unknown, exact: ExactProbe | null = null, parent: object | null = null, key: string | number = ""): string {
  if (typeof value === "number" && exact !== null && parent !== null) {
    const x = exact(parent, key);
    if (x !== undefined) return x.toString();
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((x, i) => canonicalKey(x, exact, value, i)).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalKey(obj[k], exact, obj, k)}`).join(",")}}`;
}

/**
 * A value as compact JSON for fault reasons, the same text in Go, Python and TypeScript: no
 * whitespace, object members sorted by key (by code point), strings escaping only `"`, `\` and
 * control characters, numbers as ECMAScript prints them (JSON.stringify's rules for scalars).
 */
export function compactJson(value: unknown): string {
  if (typeof value === "number") return String(value); // finite: what JSON.stringify prints
  if (typeof value === "bigint") return value.toString(); // an exact integer beyond 2^53: its digits
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(compactJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort(compareCodePoints);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${compactJson(obj[k])}`).join(",")}}`;
}
