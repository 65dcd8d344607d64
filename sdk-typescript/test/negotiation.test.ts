// schema/vectors/negotiation/answer-*.json: the exact answer or refusal of initialize, as every
// SDK must give it (the Go and Python SDKs and the host run the same files).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { HandshakeError, negotiate, type Registry } from "../src/negotiate.js";
import type { JsonObject } from "../src/json.js";
import type { ApiVersion } from "../src/types.js";

// dist/test/negotiation.test.js -> repository root
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const dir = join(root, "schema", "vectors", "negotiation");
const files = readdirSync(dir).filter((f) => f.startsWith("answer-") && f.endsWith(".json")).sort();

interface Vector {
  pinned: ApiVersion;
  max_concurrent_requests: number;
  handlers: { lifecycle?: string[] };
  offer: JsonObject;
  manifest: JsonObject;
  expect: { protocol?: JsonObject; error?: JsonObject };
}

test("negotiation vectors are found", () => {
  assert.ok(files.length >= 10, `negotiation vectors not found under ${dir}`);
});

for (const file of files) {
  test(`negotiation vector ${file}`, () => {
    const v = JSON.parse(readFileSync(join(dir, file), "utf8")) as Vector;
    const reg: Registry = { tools: [], commands: [], hooks: [], ui: [], context: false, renderers: [], lifecycle: v.handlers.lifecycle ?? [] };
    const params: JsonObject = {
      octet_version: "0.8.0",
      extension: { name: v.manifest["name"] ?? "", version: v.manifest["version"] ?? "", dir: "/ext", manifest_path: "/ext/extension.toml", source: "explicit" },
      manifest: v.manifest,
      workspace: { root: "/workspace", trusted: true },
      ...v.offer,
    };
    let result: JsonObject;
    try {
      result = negotiate(params, { pinned: v.pinned, env: undefined, maxConcurrentRequests: v.max_concurrent_requests }, reg).result;
    } catch (err) {
      if (!(err instanceof HandshakeError)) throw err;
      assert.ok(v.expect.error !== undefined, `refused ${JSON.stringify(err.wire)}, want the answer ${JSON.stringify(v.expect.protocol)}`);
      assert.deepEqual(err.wire, v.expect.error);
      return;
    }
    assert.ok(v.expect.protocol !== undefined, `answered ${JSON.stringify(result["protocol"])}, want ${JSON.stringify(v.expect.error)}`);
    assert.deepEqual(result["protocol"], v.expect.protocol);
  });
}
