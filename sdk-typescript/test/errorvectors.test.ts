// Every vector in schema/error-vectors gets exactly its error object from the TypeScript SDK.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { Extension, type JsonObject, type JsonValue } from "../src/index.js";
import type { JsonSchema } from "../src/schema.js";
import { ScriptedHost } from "../src/testing/index.js";
import { PKG, manifest } from "./helpers.js";

const dir = resolve(PKG, "../schema/error-vectors");
const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();

interface WireErr {
  code: number;
  message: string;
  data?: JsonValue;
}

interface Vector {
  tool: { name: string; parameters: JsonSchema; output_schema?: JsonSchema };
  handler: { returns?: JsonObject; raises?: Record<string, { exception: string; message: string }> };
  call: { name: string; arguments: JsonObject };
  error?: WireErr;
  error_by_language?: Record<string, WireErr>;
  pending?: Record<string, string>;
}

const errorTypes: Record<string, new (message: string) => Error> = { TypeError, RangeError, Error, SyntaxError };

describe("error vectors", () => {
  it("exist", () => assert.ok(files.length >= 3, "schema/error-vectors not found"));
  for (const f of files) {
    it(f, async () => {
      const v = JSON.parse(readFileSync(join(dir, f), "utf8")) as Vector;
      const spec = v.tool.output_schema === undefined
        ? { name: v.tool.name, description: "vector", parameters: v.tool.parameters }
        : { name: v.tool.name, description: "vector", parameters: v.tool.parameters, outputSchema: v.tool.output_schema };
      const ext = new Extension().tool(spec, () => {
        const raises = v.handler.raises?.["typescript"];
        if (raises !== undefined) throw new errorTypes[raises.exception]!(raises.message);
        return v.handler.returns as never;
      });
      const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: [v.tool.name] }) });
      assert.equal((await host.initialize()).error, undefined);
      const r = await host.callTool(v.call.name, v.call.arguments);
      const want = v.error_by_language?.["typescript"] ?? v.error!;
      const got = r.error as WireErr;
      assert.ok(got !== undefined, `want an error, got ${JSON.stringify(r.result)}`);
      const pending = v.pending?.["typescript"];
      if (pending === undefined) {
        assert.deepEqual(got, want);
      } else {
        // The validator's wording is not the fault contract's yet: everything else must match,
        // and the vector must say so no longer once the whole object does.
        assert.notDeepEqual(got, want, `pending (${pending}) but the whole object matches: remove typescript`);
        const wd = want.data as JsonObject;
        const gd = got.data as JsonObject;
        const pointer = wd["pointer"] as string;
        const prefix = want.message.slice(0, want.message.indexOf(pointer) + pointer.length + 2);
        assert.equal(got.code, want.code);
        assert.equal(gd["tool"], wd["tool"]);
        assert.equal(gd["pointer"], pointer);
        assert.ok(got.message.startsWith(prefix), got.message);
      }
      host.end();
    });
  }
});
