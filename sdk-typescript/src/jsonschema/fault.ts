// Validation faults and the one order that picks THE fault of a failed instance, shared with
// the Go and Python validators (docs/conformance.md#validation-faults: pointer, then keyword
// rank, then reason), so the three SDKs put the same fault on the wire.
import { compareCodePoints, comparePointers } from "./pointer.js";

/** One failed keyword: where in the instance, which keyword, where in the schema, and why. */
export interface Fault {
  /** RFC 6901 pointer into the instance ("" is the root). */
  readonly pointer: string;
  /** The failing keyword (`false` for a false boolean schema). */
  readonly keyword: string;
  /** The keyword's location in the schema, as a pointer from the schema's root. */
  readonly schemaPath: string;
  /** A fixed English template filled with compact JSON values. */
  readonly reason: string;
}

const RANK: readonly string[] = [
  "false", "type", "const", "enum", "required", "dependentRequired", "minProperties", "maxProperties",
  "additionalProperties", "propertyNames", "unevaluatedProperties", "minItems", "maxItems", "uniqueItems",
  "contains", "minContains", "maxContains", "unevaluatedItems", "items", "prefixItems", "minLength",
  "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "multipleOf", "anyOf", "oneOf", "not",
];
const rankOf = new Map(RANK.map((k, i) => [k, i]));

function rank(keyword: string): number {
  return rankOf.get(keyword) ?? RANK.length;
}

/**
 * The contract's order: instance pointer, then keyword rank, then reason (not schema location:
 * validators spell locations differently, while equal pointer, keyword and reason are one answer).
 */
export function compareFaults(a: Fault, b: Fault): number {
  return comparePointers(a.pointer, b.pointer) || rank(a.keyword) - rank(b.keyword) || compareCodePoints(a.reason, b.reason);
}

/** The reported fault: the least of all by compareFaults. */
export function leastFault(faults: readonly Fault[]): Fault | null {
  let best: Fault | null = null;
  for (const f of faults) if (best === null || compareFaults(f, best) < 0) best = f;
  return best;
}
