// The shared number corpus (schema/vectors/numbers/*.json): an author's schema is standard
// draft 2020-12, so an integral 7.0 is an integer and the handler receives the number 7,
// 1.5 is refused with the contract's fault, and integers beyond 2^53 are judged exactly, as
// in Go, Python and the host. The files are read as wire text (parseFrame), so an instance
// written 7.0 or 9007199254740993 reaches the validator as a frame's would.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { Extension, compileSchema, type JsonObject, type JsonSchema } from "../src/index.js";
import { invalidArguments } from "../src/schema.js";
import { exactInteger, parseFrame } from "../src/wireparse.js";
import { ScriptedHost } from "../src/testing/index.js";
import { manifest } from "./helpers.js";

interface Vector {
  description: string;
  schema: JsonSchema | boolean;
  instance: unknown;
  valid: boolean;
  delivered?: unknown;
  pointer?: string;
  keyword?: string;
  reason?: string;
  message?: string;
}

// dist/test/numbers.test.js -> repository root
const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "schema", "vectors", "numbers");
const files = readdirSync(dir).filter((n) => n.endsWith(".json")).sort();
const texts = new Map(files.map((f) => [f, readFileSync(join(dir, f), "utf8")]));
const vectors: (Vector & { file: string; index: number })[] = files.flatMap((file) =>
  (parseFrame(texts.get(file)!) as Vector[]).map((v, index) => Object.assign(v, { file, index })),
);

// The wire text of the i-th vector's instance, cut from the file as written (7.0 stays 7.0).
function instanceText(file: string, index: number): string {
  const text = texts.get(file)!;
  let at = 0;
  for (let n = 0; n <= index; n++) at = text.indexOf('"instance": ', at) + '"instance": '.length;
  const end = text.indexOf(', "valid"', at);
  return text.slice(at, end);
}

// The schema with every integer the file wrote beyond 2^53 as its exact bigint, as the
// validator takes an exact integer in a schema (JSON.parse's number would be rounded).
function exactSchema(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const [k, x] of Object.entries(value)) {
    const key = Array.isArray(value) ? Number(k) : k;
    (out as Record<string, unknown>)[k] = exactInteger(value, key) ?? exactSchema(x);
  }
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

describe("number vectors", () => {
  it("the validator gives every vector's verdict and fault", () => {
    assert.ok(vectors.length >= 15, `the corpus was found (${vectors.length} vectors)`);
    const wrong: string[] = [];
    for (const v of vectors) {
      // Wrapped, so the instance itself has a parent for its exact integer.
      const wrapped = parseFrame(`{"v":${instanceText(v.file, v.index)}}`) as { v: unknown };
      const exact = (parent: object | null, key: string | number) => (parent === null ? exactInteger(wrapped, "v") : exactInteger(parent, key));
      const fault = compileSchema(exactSchema(v.schema) as JsonSchema).check(wrapped.v, exact);
      const got = fault === null ? null : { ...invalidArguments(fault) };
      const want = v.valid
        ? null
        : { code: -32602, message: v.message, data: { keyword: v.keyword, path: `/arguments${v.pointer!}`, pointer: v.pointer, reason: v.reason } };
      try {
        assert.deepEqual(got, want);
      } catch {
        wrong.push(`${v.file} | ${v.description}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("a served tool takes or refuses every object vector, handing the handler the delivered value", async () => {
    // A schema with an integer beyond 2^53 cannot be declared from TypeScript (a number
    // literal is rounded, and JSON cannot carry a bigint): those vectors are the validator's.
    const declarable = (v: Vector) => typeof exactSchema(v.schema) === "boolean" || !JSON.stringify(v.schema, (_k, x: unknown) => (typeof x === "number" && !Number.isSafeInteger(x) && Number.isInteger(x) ? "big" : x)).includes('"big"');
    const served = vectors.filter((v) => isObj(v.schema) && isObj(v.instance) && declarable(v));
    assert.ok(served.length >= 5, `${served.length} object vectors`);
    const seen = new Map<number, unknown>();
    const ext = new Extension();
    served.forEach((v, i) =>
      ext.tool({ name: `v${i}`, description: v.description, parameters: v.schema as JsonSchema }, (args) => {
        seen.set(i, args);
        return "served";
      }),
    );
    const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: served.map((_, i) => `v${i}`) }) });
    assert.equal((await host.initialize()).error, undefined);
    for (const [i, v] of served.entries()) {
      const id = 2000 + i;
      host.sendRaw(`{"jsonrpc":"2.0","id":${id},"method":"tool/call","params":{"name":"v${i}","arguments":${instanceText(v.file, v.index)}}}\n`);
      const r = await host.waitFor((f) => f["id"] === id);
      if (v.valid) {
        assert.equal(r["error"], undefined, `${v.file} | ${v.description}`);
        if (v.delivered !== undefined) assert.equal(JSON.stringify(seen.get(i)), JSON.stringify(v.delivered), v.description);
      } else {
        assert.equal((r["error"] as JsonObject)["message"], v.message, `${v.file} | ${v.description}`);
      }
    }
  });
});
