// The shared fault corpus (schema/vectors/faults/*.json, docs/conformance.md#validation-faults):
// every vector's instance gets exactly the vector's pointer, keyword, reason and message, from
// the validator and, for object instances, on the wire from a served tool. The files are read
// as wire text (parseFrame), so an instance written `1.0` stays apart from `1`.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { Extension, compileSchema, type JsonSchema } from "../src/index.js";
import { invalidArguments } from "../src/schema.js";
import { parseFrame, writtenAsFloat } from "../src/wireparse.js";
import { ScriptedHost } from "../src/testing/index.js";
import { manifest } from "./helpers.js";

interface Vector {
  description: string;
  schema: JsonSchema | boolean;
  instance: unknown;
  pointer: string;
  keyword: string;
  reason: string;
  message: string;
}

// dist/test/faults.test.js -> repository root
const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "schema", "vectors", "faults");
const vectors: (Vector & { file: string })[] = readdirSync(dir)
  .filter((n) => n.endsWith(".json"))
  .sort()
  .flatMap((file) => (parseFrame(readFileSync(join(dir, file), "utf8")) as Vector[]).map((v) => Object.assign(v, { file })));

// The instance as wire text again, numbers written as floats keeping their fraction.
function wireText(value: unknown, float: boolean): string {
  if (typeof value === "number") return float && Number.isInteger(value) ? `${value}.0` : JSON.stringify(value);
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((x, i) => wireText(x, writtenAsFloat(value, i))).join(",")}]`;
  return `{${Object.entries(value).map(([k, x]) => `${JSON.stringify(k)}:${wireText(x, writtenAsFloat(value, k))}`).join(",")}}`;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

describe("fault vectors", () => {
  it("the validator reports every vector's fault, message and data", () => {
    assert.ok(vectors.length >= 90, `the corpus was found (${vectors.length} vectors)`);
    const wrong: string[] = [];
    for (const v of vectors) {
      const fault = compileSchema(v.schema).check(v.instance);
      const got = fault === null ? null : { pointer: fault.pointer, keyword: fault.keyword, reason: fault.reason, ...invalidArguments(fault) };
      const want = {
        pointer: v.pointer,
        keyword: v.keyword,
        reason: v.reason,
        code: -32602,
        message: v.message,
        data: { keyword: v.keyword, path: `/arguments${v.pointer}`, pointer: v.pointer, reason: v.reason },
      };
      try {
        assert.deepEqual(got, want);
      } catch {
        wrong.push(`${v.file} | ${v.description}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      }
    }
    console.log(`fault vectors: ${vectors.length - wrong.length}/${vectors.length} agree`);
    assert.deepEqual(wrong, []);
  });

  it("a served tool answers every object vector with the exact -32602 error", async () => {
    const served = vectors.filter((v) => isObj(v.schema) && isObj(v.instance));
    assert.ok(served.length >= 30, `${served.length} object vectors`);
    const ext = new Extension();
    served.forEach((v, i) => ext.tool({ name: `v${i}`, description: v.description, parameters: v.schema as JsonSchema }, () => "served"));
    const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: served.map((_, i) => `v${i}`) }) });
    const init = await host.initialize();
    assert.equal(init.error, undefined, JSON.stringify(init.error));
    for (const [i, v] of served.entries()) {
      const id = 1000 + i;
      host.sendRaw(`{"jsonrpc":"2.0","id":${id},"method":"tool/call","params":{"name":"v${i}","arguments":${wireText(v.instance, false)}}}\n`);
      const r = await host.waitFor((f) => f["id"] === id);
      assert.deepEqual(
        r["error"],
        { code: -32602, message: v.message, data: { keyword: v.keyword, path: `/arguments${v.pointer}`, pointer: v.pointer, reason: v.reason } },
        `${v.file} | ${v.description}`,
      );
    }
  });
});
