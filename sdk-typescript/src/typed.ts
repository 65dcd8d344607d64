/**
 * A small schema builder whose values carry their TypeScript types: one definition gives a
 * tool its JSON Schema (parameters or output_schema) and its handler its argument and return
 * types, as Go derives schemas from structs and Python from type hints. Zero dependencies;
 * the schemas it writes are the ones the Go and Python SDKs derive for the same shapes
 * (`testsuites/typed-parity.json` holds one tool all three must agree on):
 *
 * ```ts
 * const Area = typed.object({ width: typed.number({ minimum: 0 }), label: typed.optional(typed.string()) });
 * type Area = TypeOf<typeof Area>; // { width: number; label?: string }
 * ```
 */
import type { JsonSchema } from "./schema.js";
import type { JsonValue } from "./json.js";

/** A schema that accepts values of type T. `T` lives only in the type system. */
export interface Typed<T> {
  /** The JSON Schema written for it (a fresh copy each read is not needed: it is frozen). */
  readonly schema: JsonSchema;
  /** Phantom: never set at run time; it carries T for TypeOf. */
  readonly __type?: T;
}

/** A property an object may leave out (`typed.optional(...)`). */
export interface Optional<T> {
  readonly optional: Typed<T>;
}

/** The TypeScript type a typed schema accepts. */
export type TypeOf<S> = S extends Typed<infer T> ? T : never;

type Shape = { readonly [key: string]: Typed<unknown> | Optional<unknown> };
type RequiredKeys<P extends Shape> = { [K in keyof P]: P[K] extends Optional<unknown> ? never : K }[keyof P];
type OptionalKeys<P extends Shape> = { [K in keyof P]: P[K] extends Optional<unknown> ? K : never }[keyof P];
type PropType<X> = X extends Optional<infer T> ? T : X extends Typed<infer T> ? T : never;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
/** The object type of a shape: required keys, then optional ones. */
export type ObjectOf<P extends Shape> = Flatten<
  { [K in RequiredKeys<P>]: PropType<P[K]> } & { [K in OptionalKeys<P>]?: PropType<P[K]> }
>;

interface Described {
  description?: string;
}
export interface StringOptions extends Described {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}
export interface NumberOptions extends Described {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}
export interface ArrayOptions extends Described {
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

function make<T>(schema: JsonSchema): Typed<T> {
  return Object.freeze({ schema: Object.freeze(schema) });
}

/** Keywords in the order the Go and Python SDKs write them does not matter to JSON; undefined ones are left out. */
function withOptions(base: JsonSchema, options: object | undefined): JsonSchema {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(options ?? {})) {
    if (v !== undefined) out[k] = v;
  }
  return out as JsonSchema;
}

function isOptional(x: Typed<unknown> | Optional<unknown>): x is Optional<unknown> {
  return "optional" in x;
}

/** The builders. Each returns a frozen value whose `schema` is plain JSON Schema 2020-12. */
export const typed = {
  string(options?: StringOptions): Typed<string> {
    return make(withOptions({ type: "string" }, options));
  },
  number(options?: NumberOptions): Typed<number> {
    return make(withOptions({ type: "number" }, options));
  },
  /** A whole number (JSON Schema `integer`); the handler sees a `number`. */
  integer(options?: NumberOptions): Typed<number> {
    return make(withOptions({ type: "integer" }, options));
  },
  boolean(options?: Described): Typed<boolean> {
    return make(withOptions({ type: "boolean" }, options));
  },
  /** One of the given values (`enum`), typed as their union. */
  enum<const V extends readonly (string | number | boolean | null)[]>(values: V, options?: Described): Typed<V[number]> {
    if (values.length === 0) throw new TypeError("typed.enum needs at least one value");
    return make(withOptions({ enum: [...values] as JsonValue[] }, options));
  },
  array<T>(items: Typed<T>, options?: ArrayOptions): Typed<T[]> {
    return make(withOptions({ type: "array", items: items.schema }, options));
  },
  /** A JSON object with string keys and values of one schema (`additionalProperties`). */
  record<T>(values: Typed<T>, options?: Described): Typed<Record<string, T>> {
    return make(withOptions({ type: "object", additionalProperties: values.schema }, options));
  },
  /** `T | null`: the value or JSON null (`anyOf`). */
  nullable<T>(inner: Typed<T>): Typed<T | null> {
    return make({ anyOf: [inner.schema, { type: "null" }] });
  },
  /** Marks an object property the value may leave out. */
  optional<T>(inner: Typed<T>): Optional<T> {
    return Object.freeze({ optional: inner });
  },
  /**
   * An object with exactly these properties (no others: `additionalProperties: false`); every
   * property is required unless wrapped in `typed.optional`. Property order is kept.
   */
  object<const P extends Shape>(shape: P, options?: Described): Typed<ObjectOf<P>> {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, value] of Object.entries(shape)) {
      if (isOptional(value)) {
        properties[key] = value.optional.schema;
      } else {
        properties[key] = value.schema;
        required.push(key);
      }
    }
    const base: JsonSchema = { type: "object", properties, additionalProperties: false };
    if (required.length > 0) (base as { required?: string[] }).required = required;
    return make(withOptions(base, options));
  },
};

/** A typed tool: its parameters (and, with `output`, its output_schema) and the handler's types come from one definition. */
export interface TypedToolSpec<I, O = never> {
  name: string;
  description: string;
  input: Typed<I>;
  output?: Typed<O>;
}
