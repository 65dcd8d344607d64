// Tool schemas are compiled when the tool is defined: a schema the validator cannot compile is
// refused then, naming the tool and the JSON pointer of the bad keyword, never at call time.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { Extension, SchemaError, ValidationError, compileSchema, type JsonSchema } from "../src/index.js";

function refusal(parameters: unknown, outputSchema?: unknown): string {
  const spec = { name: "area", description: "", parameters: parameters as JsonSchema, ...(outputSchema === undefined ? {} : { outputSchema: outputSchema as JsonSchema }) };
  try {
    new Extension().tool(spec, () => "x");
  } catch (err) {
    assert.ok(err instanceof ValidationError, String(err));
    return err.message;
  }
  assert.fail("the schema was accepted");
}

interface Dialect {
  portable: { pattern: string; matches: string[]; rejects: string[]; why: string }[];
  refused: string[];
}

// dist/test/schema.test.js -> repository root
const dialect = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "schema", "vectors", "patterns", "dialect.json"), "utf8"),
) as Dialect;

describe("the shared pattern dialect (schema/vectors/patterns/dialect.json)", () => {
  it("gives every portable pattern its verdicts (a match anywhere, not anchored)", () => {
    assert.ok(dialect.portable.length >= 10);
    for (const p of dialect.portable) {
      const c = compileSchema({ pattern: p.pattern });
      for (const s of p.matches) assert.equal(c.valid(s), true, `${JSON.stringify(p.pattern)} must match ${JSON.stringify(s)}: ${p.why}`);
      for (const s of p.rejects) assert.equal(c.valid(s), false, `${JSON.stringify(p.pattern)} must not match ${JSON.stringify(s)}: ${p.why}`);
    }
  });

  it("refuses every pattern outside it, at the keyword's pointer", () => {
    assert.ok(dialect.refused.length >= 10);
    for (const pattern of dialect.refused) {
      assert.throws(
        () => compileSchema({ patternProperties: { "^x": true }, properties: { a: { pattern } } }),
        (err) => err instanceof SchemaError && err.pointer === "/properties/a/pattern",
        JSON.stringify(pattern),
      );
      assert.throws(() => compileSchema({ patternProperties: { [pattern]: true } }), (err) => err instanceof SchemaError && err.pointer.startsWith("/patternProperties/"), JSON.stringify(pattern));
    }
  });
});

describe("schemas refused at definition", () => {
  it("names the tool and the bad keyword's pointer", () => {
    assert.match(refusal({ properties: { x: { pattern: "(" } } }), /^tool "area": parameters schema \/properties\/x\/pattern: invalid regular expression "\("/);
    assert.match(refusal({ $ref: "https://example.com/other.json" }), /^tool "area": parameters schema \/\$ref: cannot resolve \$ref "https:\/\/example.com\/other.json"/);
    assert.match(refusal({ $ref: "#/$defs/missing" }), /^tool "area": parameters schema \/\$ref: cannot resolve/);
    assert.equal(refusal({ properties: { n: { minimum: "3" } } }), 'tool "area": parameters schema /properties/n/minimum: minimum must be a number');
    assert.equal(refusal({ type: "float" }), 'tool "area": parameters schema /type: type must be one of null, boolean, object, array, number, string, integer or a non-empty array of them');
    assert.equal(refusal({ items: [{ type: "string" }] }), 'tool "area": parameters schema /items: a schema must be an object or a boolean');
    assert.equal(refusal({ required: "a" }), 'tool "area": parameters schema /required: required must be an array of strings');
    assert.equal(refusal({ multipleOf: 0 }), 'tool "area": parameters schema /multipleOf: multipleOf must be greater than 0');
    assert.match(refusal({ patternProperties: { "a{": {} } }), /^tool "area": parameters schema \/patternProperties\/a\{: invalid regular expression/);
    assert.match(refusal({ type: "object" }, { properties: { y: { maxLength: -1 } } }), /^tool "area": output_schema \/properties\/y\/maxLength: maxLength must be a non-negative integer/);
  });

  it("refuses patterns outside the dialect RE2, Python and ECMAScript share", () => {
    for (const pattern of ["^(?=a)", "(?!b)", "(?<=c)d", "(?<!c)d", "(a)\\1", "(?<n>a)\\k<n>"]) {
      assert.match(refusal({ properties: { x: { pattern } } }), /^tool "area": parameters schema \/properties\/x\/pattern: invalid regular expression .*; patterns must be portable across RE2, Python and ECMAScript$/, pattern);
    }
    // Escaped and bracketed look-alikes stay allowed.
    for (const pattern of ["\\(?=", "[(?=]", "^\\d{1,3}$", "\\\\1"]) assert.doesNotThrow(() => compileSchema({ pattern }), pattern);
  });

  it("compiles a schema object once and judges with it", () => {
    const schema: JsonSchema = { type: "object", properties: { n: { type: "integer" } } };
    assert.equal(compileSchema(schema), compileSchema(schema));
    assert.throws(() => compileSchema({ $ref: "nowhere.json" }), (err) => err instanceof SchemaError && err.pointer === "/$ref");
    assert.equal(compileSchema(schema).valid({ n: 1 }), true);
    assert.equal(compileSchema(schema).valid({ n: "1" }), false);
  });
});

describe("the fault order's pointer comparison", () => {
  // Reference: unescape the tokens, compare them as arrays of code points.
  const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0)!);
  const byCodePoint = (a: string, b: string): number => {
    const [x, y] = [codePoints(a), codePoints(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  };
  const tokens = (p: string) => (p === "" ? [] : p.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")));
  const reference = (p: string, q: string): number => {
    const [x, y] = [tokens(p), tokens(q)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = byCodePoint(x[i]!, y[i]!);
      if (c !== 0) return c;
    }
    return x.length - y.length;
  };

  it("orders tokens by code point, a prefix first, escapes unescaped", async () => {
    const { comparePointers } = await import("../src/jsonschema/pointer.js");
    const pieces = ["a", "b", "/", "~", "\uff61", "\u{1F600}", "\ue000", "", "0", "10", "2"];
    const names = pieces.flatMap((x) => pieces.map((y) => x + y));
    const pointers = ["", ...names.map((n) => `/${n.replace(/~/g, "~0").replace(/\//g, "~1")}`)];
    const all = [...pointers, ...pointers.slice(0, 40).map((p) => `${p}/x`)];
    for (const p of all) for (const q of all) assert.equal(Math.sign(comparePointers(p, q)), Math.sign(reference(p, q)), JSON.stringify([p, q]));
  });
});
