// JSON Schema for tool `parameters` and `output_schema`: the complete draft 2020-12 validator
// of ./jsonschema/, each schema compiled once (when its tool is defined) and then a boolean
// walk per call. Faults follow docs/conformance.md#validation-faults, word for word as in the
// Go and Python SDKs. Zero dependencies by design.
import { compileSchema as compile, type CompileOptions, type CompiledSchema } from "./jsonschema/compile.js";
import type { Fault } from "./jsonschema/fault.js";
import { SchemaError } from "./jsonschema/refs.js";
import { ValidationError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { ExactProbe } from "./jsonschema/state.js";
import { exactInteger } from "./wireparse.js";

export type { CompileOptions, CompiledSchema } from "./jsonschema/compile.js";
export type { ExactProbe } from "./jsonschema/state.js";
export type { Fault } from "./jsonschema/fault.js";
export { SchemaError } from "./jsonschema/refs.js";

/**
 * A JSON Schema document as authors write it (open: unknown keywords are allowed). The fields
 * the SDK typed before 2020-12 support keep their narrower types (source compatibility); a
 * `false` or `true` subschema there can still be written through a cast.
 */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  $ref?: string;
  $defs?: { readonly [key: string]: JsonSchema | boolean };
  $anchor?: string;
  $dynamicRef?: string;
  $dynamicAnchor?: string;
  type?: JsonTypeName | readonly JsonTypeName[];
  properties?: { readonly [key: string]: JsonSchema };
  patternProperties?: { readonly [key: string]: JsonSchema | boolean };
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  unevaluatedProperties?: boolean | JsonSchema;
  propertyNames?: boolean | JsonSchema;
  dependentRequired?: { readonly [key: string]: readonly string[] };
  dependentSchemas?: { readonly [key: string]: JsonSchema | boolean };
  minProperties?: number;
  maxProperties?: number;
  items?: JsonSchema;
  prefixItems?: readonly (JsonSchema | boolean)[];
  unevaluatedItems?: boolean | JsonSchema;
  contains?: JsonSchema | boolean;
  minContains?: number;
  maxContains?: number;
  uniqueItems?: boolean;
  enum?: readonly JsonValue[];
  const?: JsonValue;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  allOf?: readonly JsonSchema[];
  not?: JsonSchema | boolean;
  if?: JsonSchema | boolean;
  then?: JsonSchema | boolean;
  else?: JsonSchema | boolean;
  description?: string;
  title?: string;
  default?: JsonValue;
  [keyword: string]: unknown;
}

export type JsonTypeName = "object" | "array" | "string" | "integer" | "number" | "boolean" | "null";

/** The fault reported for a value: its JSON pointer ("" is the value itself), keyword and reason. */
export interface SchemaFault {
  path: string;
  keyword: string;
  reason: string;
}

const compiled = new WeakMap<object, CompiledSchema>();

/**
 * The exact integers of decoded frames (9007199254740993 as written, not JSON.parse's
 * 9007199254740992), so tool arguments beyond 2^53 are judged exactly; the validated
 * arguments object itself is never a bare number.
 */
export const wireExact: ExactProbe = (parent, key) => (parent === null ? undefined : exactInteger(parent, key));

/**
 * Compile a schema once; later calls with the same object return the same compiled schema.
 * Throws SchemaError (its `pointer` names the bad keyword) when the schema cannot be compiled.
 */
export function compileSchema(schema: JsonSchema | boolean, options?: CompileOptions): CompiledSchema {
  if (typeof schema !== "object" || schema === null || options !== undefined) return compile(schema, options);
  let c = compiled.get(schema);
  if (c === undefined) {
    c = compile(schema);
    compiled.set(schema, c);
  }
  return c;
}

/**
 * Compile a tool's schema when the tool is defined; a schema that cannot be compiled is refused
 * naming the tool and the bad keyword's pointer.
 */
export function compileToolSchema(tool: string, what: "parameters" | "output_schema", schema: JsonSchema): CompiledSchema {
  try {
    return compileSchema(schema);
  } catch (err) {
    // Worded as in Go and Python: `parameters schema <pointer>: ...`, `output_schema <pointer>: ...`.
    if (err instanceof SchemaError) throw new ValidationError(`tool ${JSON.stringify(tool)}: ${what === "parameters" ? "parameters schema" : what} ${err.message}`, err.pointer);
    throw err;
  }
}

/**
 * Check `value` against `schema`; returns the reported fault or null. `path` is prefixed to the
 * fault's pointer. The schema is an author's, so standard draft 2020-12: an integral `7.0` is
 * an integer (the wire rule rpc.strict_json is for the protocol's own fields).
 * The schema is compiled on first use (throwing SchemaError if it cannot be) and then reused.
 */
export function checkSchema(schema: JsonSchema, value: unknown, path = ""): SchemaFault | null {
  const fault = compileSchema(schema).check(value);
  return fault === null ? null : { path: path + fault.pointer, keyword: fault.keyword, reason: fault.reason };
}

/** The -32602 answer to tool arguments failing `parameters` (docs/conformance.md#validation-faults). */
export function invalidArguments(fault: Fault): { code: -32602; message: string; data: JsonObject } {
  const where = fault.pointer === "" ? "(root)" : fault.pointer;
  return {
    code: -32602,
    message: `invalid arguments: ${where}: ${fault.reason}`,
    data: { keyword: fault.keyword, path: `/arguments${fault.pointer}`, pointer: fault.pointer, reason: fault.reason },
  };
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
