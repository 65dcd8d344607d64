// The fixed English reason templates of faults (docs/conformance.md#validation-faults). Go and
// Python print the same words; values appear as compact JSON so quoting and escaping agree.
import { compactJson as j } from "./equal.js";

// The order the type keyword lists its types in, whatever the schema's order.
const TYPE_ORDER = ["null", "boolean", "number", "integer", "string", "array", "object"];

export const reasons = {
  false: () => "no value is allowed",
  type: (want: readonly string[], got: string) => `want type ${TYPE_ORDER.filter((t) => want.includes(t)).join(" or ")}, got ${got}`,
  const: (want: unknown) => `want constant ${j(want)}`,
  enum: (want: readonly unknown[]) => `want one of ${j(want)}`,
  required: (name: string) => `missing required property ${j(name)}`,
  dependentRequired: (name: string, by: string) => `missing property ${j(name)}, required by ${j(by)}`,
  minProperties: (want: number, got: number) => `want at least ${want} properties, got ${got}`,
  maxProperties: (want: number, got: number) => `want at most ${want} properties, got ${got}`,
  additionalProperties: (name: string) => `unexpected property ${j(name)}`,
  unevaluatedProperties: (name: string) => `unexpected property ${j(name)}`,
  propertyNames: (name: string) => `invalid property name ${j(name)}`,
  minItems: (want: number, got: number) => `want at least ${want} items, got ${got}`,
  maxItems: (want: number, got: number) => `want at most ${want} items, got ${got}`,
  uniqueItems: (i: number, k: number) => `items ${i} and ${k} are equal`,
  contains: () => "no item matches contains",
  minContains: (want: number, got: number) => `want at least ${want} items matching contains, got ${got}`,
  maxContains: (want: number, got: number) => `want at most ${want} items matching contains, got ${got}`,
  unevaluatedItems: (i: number) => `unexpected item at index ${i}`,
  items: (i: number) => `unexpected item at index ${i}`,
  minLength: (want: number, got: number) => `want at least ${want} characters, got ${got}`,
  maxLength: (want: number, got: number) => `want at most ${want} characters, got ${got}`,
  pattern: (pattern: string) => `want a string matching ${j(pattern)}`,
  format: (format: string) => `want format ${format}`,
  minimum: (want: number | bigint, got: number | bigint) => `want at least ${j(want)}, got ${j(got)}`,
  maximum: (want: number | bigint, got: number | bigint) => `want at most ${j(want)}, got ${j(got)}`,
  exclusiveMinimum: (want: number | bigint, got: number | bigint) => `want more than ${j(want)}, got ${j(got)}`,
  exclusiveMaximum: (want: number | bigint, got: number | bigint) => `want less than ${j(want)}, got ${j(got)}`,
  multipleOf: (want: number | bigint, got: number | bigint) => `want a multiple of ${j(want)}, got ${j(got)}`,
  anyOf: () => "matches no anyOf branch",
  oneOf: (matched: readonly number[]) => (matched.length === 0 ? "matches no oneOf branch" : `matches oneOf branches ${matched[0]} and ${matched[1]}`),
  not: () => "matches the not schema",
} as const;
