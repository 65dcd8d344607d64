// A small JSON Schema checker for tool `parameters` and `output_schema`. It covers the keywords
// tool schemas use (type, properties, required, additionalProperties, items, enum, const,
// numeric and length bounds, pattern, anyOf/oneOf/allOf); other keywords are ignored, and the
// host validates again with a full validator. Zero dependencies by design.
import { codePoints, isObject, type JsonValue } from "./json.js";
import { writtenAsFloat } from "./wireparse.js";

/** A JSON Schema document as authors write it (open: unknown keywords are allowed). */
export interface JsonSchema {
  type?: JsonTypeName | readonly JsonTypeName[];
  properties?: { readonly [key: string]: JsonSchema };
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly JsonValue[];
  const?: JsonValue;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  allOf?: readonly JsonSchema[];
  description?: string;
  title?: string;
  default?: JsonValue;
  [keyword: string]: unknown;
}

export type JsonTypeName = "object" | "array" | "string" | "integer" | "number" | "boolean" | "null";

export interface SchemaFault {
  path: string;
  reason: string;
}

function typeOf(value: unknown, float: boolean): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") {
    if (float || !Number.isInteger(value)) return "number";
    return Number.isSafeInteger(value) ? "integer" : "integer outside ±(2^53−1)";
  }
  return typeof value;
}

// float: the value was written with a fraction or exponent (`1.0`), which is a number and,
// on this wire, never an integer (as in the Go and Python SDKs).
function matchesType(value: unknown, type: JsonTypeName, float: boolean): boolean {
  switch (type) {
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && !float && Number.isSafeInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
  }
}

function equalJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

const patternCache = new Map<string, RegExp>();

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** Check `value` against `schema`; returns the first fault (path is a JSON Pointer) or null. */
export function checkSchema(schema: JsonSchema, value: unknown, path = ""): SchemaFault | null {
  return check(schema, value, path, false);
}

function check(schema: JsonSchema, value: unknown, path: string, float: boolean): SchemaFault | null {
  const where = path === "" ? "/" : path;
  if (schema.type !== undefined) {
    const types = (typeof schema.type === "string" ? [schema.type] : schema.type) as readonly JsonTypeName[];
    if (!types.some((t) => matchesType(value, t, float))) {
      return { path: where, reason: `expected ${types.join(" or ")}, got ${typeOf(value, float)}` };
    }
  }
  if (schema.const !== undefined && !equalJson(schema.const, value)) {
    return { path: where, reason: `expected the constant ${JSON.stringify(schema.const)}` };
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => equalJson(e, value))) {
    return { path: where, reason: `expected one of ${JSON.stringify(schema.enum)}` };
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return { path: where, reason: `${value} is below the minimum ${schema.minimum}` };
    if (schema.maximum !== undefined && value > schema.maximum) return { path: where, reason: `${value} is above the maximum ${schema.maximum}` };
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return { path: where, reason: `${value} must be above ${schema.exclusiveMinimum}` };
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return { path: where, reason: `${value} must be below ${schema.exclusiveMaximum}` };
  } else if (typeof value === "string") {
    if (schema.minLength !== undefined || schema.maxLength !== undefined) {
      const n = codePoints(value);
      if (schema.minLength !== undefined && n < schema.minLength) return { path: where, reason: `string of ${n} chars is shorter than ${schema.minLength}` };
      if (schema.maxLength !== undefined && n > schema.maxLength) return { path: where, reason: `string of ${n} chars is longer than ${schema.maxLength}` };
    }
    if (schema.pattern !== undefined) {
      let re = patternCache.get(schema.pattern);
      if (re === undefined) {
        re = new RegExp(schema.pattern, "u");
        patternCache.set(schema.pattern, re);
      }
      if (!re.test(value)) return { path: where, reason: `does not match the pattern ${schema.pattern}` };
    }
  } else if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return { path: where, reason: `${value.length} items, fewer than ${schema.minItems}` };
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return { path: where, reason: `${value.length} items, more than ${schema.maxItems}` };
    if (schema.items !== undefined) {
      for (let i = 0; i < value.length; i++) {
        const fault = check(schema.items, value[i], pointer(path, i), writtenAsFloat(value, i));
        if (fault) return fault;
      }
    }
  } else if (isObject(value)) {
    if (schema.required !== undefined) {
      for (const key of schema.required) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) return { path: pointer(path, key), reason: `required field '${key}' is missing` };
      }
    }
    const props = schema.properties;
    for (const key of Object.keys(value)) {
      const sub = props !== undefined && Object.prototype.hasOwnProperty.call(props, key) ? props[key] : undefined;
      if (sub !== undefined) {
        const fault = check(sub, value[key], pointer(path, key), writtenAsFloat(value, key));
        if (fault) return fault;
      } else if (schema.additionalProperties === false) {
        return { path: pointer(path, key), reason: `unknown field '${key}'` };
      } else if (typeof schema.additionalProperties === "object") {
        const fault = check(schema.additionalProperties, value[key], pointer(path, key), writtenAsFloat(value, key));
        if (fault) return fault;
      }
    }
  }
  if (schema.allOf !== undefined) {
    for (const sub of schema.allOf) {
      const fault = check(sub, value, path, float);
      if (fault) return fault;
    }
  }
  if (schema.anyOf !== undefined && !schema.anyOf.some((sub) => check(sub, value, path, float) === null)) {
    return { path: where, reason: "matches none of the anyOf alternatives" };
  }
  if (schema.oneOf !== undefined) {
    const n = schema.oneOf.filter((sub) => check(sub, value, path, float) === null).length;
    if (n !== 1) return { path: where, reason: `matches ${n} of the oneOf alternatives, expected exactly 1` };
  }
  return null;
}

// ---- Static inference: the handler's argument type follows from a schema written `as const`.

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type InferType<T> = T extends "string"
  ? string
  : T extends "integer" | "number"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? JsonValue[]
          : T extends "object"
            ? { [key: string]: JsonValue }
            : JsonValue;

type RequiredKeys<S> = S extends { required: readonly (infer K)[] } ? K & string : never;

type InferObject<S> = S extends { properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: Infer<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: Infer<P[K]>;
      }
    >
  : { [key: string]: JsonValue };

/**
 * The TypeScript type a value accepted by schema `S` has. Works for schemas declared
 * `as const`; anything it cannot follow becomes JsonValue (never `any`).
 */
export type Infer<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { const: infer C }
    ? C
    : S extends { type: "object" }
      ? InferObject<S>
      : S extends { type: "array"; items: infer I }
        ? Infer<I>[]
        : S extends { type: infer T }
          ? T extends readonly (infer U)[]
            ? InferType<U>
            : InferType<T>
          : JsonValue;
