// API parity: the service objects an Extension carries (read from the running code) are
// exactly the sdk rows of schema/methods.json plus schema/sdk-surface.json: the same
// services, operations and positional arguments in order, as in the Go and Python SDKs.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { apiSurface, compareSurfaces, type Surface } from "../src/apisurface.js";
import { GENERATED_SURFACE } from "../src/generated/services.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");

interface Row {
  service: string;
  operation: string;
  arguments: string[];
}

/** The surface the schema fixes: every sent method's sdk row and every convenience. */
function schemaSurface(): Surface {
  const methods = JSON.parse(readFileSync(join(root, "schema", "methods.json"), "utf8")) as { methods: { sdk?: Row }[] };
  const extra = JSON.parse(readFileSync(join(root, "schema", "sdk-surface.json"), "utf8")) as { conveniences: Row[] };
  const out: Surface = {};
  for (const row of [...methods.methods.flatMap((m) => (m.sdk === undefined ? [] : [m.sdk])), ...extra.conveniences]) {
    (out[row.service] ??= {})[row.operation] = row.arguments;
  }
  return out;
}

describe("API parity with the schema", () => {
  it("the service objects are the schema's sdk rows plus sdk-surface.json, no more and no less", () => {
    const expected = schemaSurface();
    assert.ok(Object.keys(expected).length >= 9, "the schema names the services");
    assert.deepEqual(compareSurfaces(apiSurface(), expected), []);
  });

  it("the generated table agrees with the schema's rows (the generator read them)", () => {
    const expected = schemaSurface();
    for (const [service, ops] of Object.entries(GENERATED_SURFACE)) {
      for (const [op, args] of Object.entries(ops)) {
        const snakeOp = op.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        assert.deepEqual(expected[service]?.[snakeOp], [...args], `${service}.${snakeOp}`);
      }
    }
  });

  it("refuses a surface with an operation renamed, arguments swapped, one missing or one extra", () => {
    const expected = schemaSurface();
    const actual = apiSurface();
    const renamed = structuredClone(actual);
    renamed["kv"]!["fetch"] = renamed["kv"]!["get"]!;
    delete renamed["kv"]!["get"];
    assert.deepEqual(compareSurfaces(renamed, expected).sort(), ["kv.fetch is not in the schema", "kv.get is missing"]);
    const swapped = structuredClone(actual);
    swapped["agents"]!["spawn"] = ["message", "task_name"];
    assert.deepEqual(compareSurfaces(swapped, expected), ["agents.spawn takes (message, task_name); the schema says (task_name, message)"]);
    const extra = structuredClone(actual);
    extra["ui"]!["toast"] = ["message"];
    assert.deepEqual(compareSurfaces(extra, expected), ["ui.toast is not in the schema"]);
    const gone = structuredClone(actual);
    delete gone["secrets"];
    assert.deepEqual(compareSurfaces(gone, expected).sort(), ["secrets.get is missing", "service secrets is missing"]);
  });

  it("the surface command prints the same surface as JSON", () => {
    const out = execFileSync(process.execPath, [join(here, "..", "src", "apisurface.js")], { encoding: "utf8" });
    assert.deepEqual(JSON.parse(out), apiSurface());
  });
});

describe("the fake host (testing) is driven by the descriptors", () => {
  it("answers every request the extension may send, and validates params as the host does", async () => {
    const { Requests } = await import("../src/generated/requests.js");
    const { ReverseServices } = await import("../src/testing/index.js");
    const fake = new ReverseServices({}, "t");
    const requests = Object.values(Requests).filter((r) => r.kind === "request").map((r) => r.method).sort();
    assert.deepEqual([...fake.table.keys()].sort(), requests);
    const refused = await fake.handle(Requests.KV_COMMIT.method, { preconditions: [], writes: [] });
    assert.ok("error" in refused && refused.error.code === -32602, JSON.stringify(refused));
  });
});
