// KV migrations: ext.migration steps run once before the first KV call (the Go SDK's
// TestMigration* and sdk-python/tests/test_migrate.py assert the same behaviour and messages).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Extension, KV_VERSION_KEY, MigrationTx, type JsonObject, type JsonValue, type MigrationStep } from "../src/index.js";
import { ScriptedHost } from "../src/testing/index.js";
import { manifest } from "./helpers.js";

const NS = "t";

async function migrating(declared: number, register: (ext: Extension, host: () => ScriptedHost) => void) {
  const ext = new Extension();
  ext.tool({ name: "read_note", description: "Read the note" }, async () => {
    const got = await ext.kv.get("note");
    return { content: "ok", metadata: { note: (got.found ? got.value : null) as JsonValue } as JsonObject };
  });
  let host: ScriptedHost | undefined;
  register(ext, () => host!);
  host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: ["read_note"] }, { state: { kv_version: declared } }) });
  const init = await host.initialize();
  assert.equal(init.error, undefined, JSON.stringify(init.error));
  const read = async (): Promise<{ note?: JsonValue; error?: string; data?: JsonValue; code?: number }> => {
    const r = await host!.callTool("read_note");
    if (r.error) return { error: r.error.message, code: r.error.code, data: r.error.data as JsonValue };
    return { note: ((r.result as JsonObject)["metadata"] as JsonObject)["note"]! };
  };
  return { host, read, kv: (key: string) => host!.services.kv.get(`${NS}\u0000${key}`)?.value };
}

function noteToObject(runs: string[]): MigrationStep {
  return async (tx) => {
    runs.push("ran");
    const text = await tx.get("note");
    if (text !== undefined) tx.put("note", { text });
  };
}

describe("kv migrations", () => {
  it("run once before the first KV call", async () => {
    const runs: string[] = [];
    const { host, read, kv } = await migrating(2, (ext) => ext.migration(1, noteToObject(runs)));
    host.services.seedKV(NS, "note", "hello"); // version 1 data: no octet:kv_version
    for (let i = 0; i < 2; i++) assert.deepEqual(await read(), { note: { text: "hello" } });
    assert.deepEqual(runs, ["ran"]);
    assert.equal(kv(KV_VERSION_KEY), 2);
  });

  it("run nothing when the stored version is the declared one", async () => {
    const runs: string[] = [];
    const { host, read } = await migrating(2, (ext) => ext.migration(1, noteToObject(runs)));
    host.services.seedKV(NS, "note", { text: "new" });
    host.services.seedKV(NS, KV_VERSION_KEY, 2);
    assert.deepEqual(await read(), { note: { text: "new" } });
    assert.deepEqual(runs, []);
  });

  it("keep the old data when a step fails, and retry on the next KV call", async () => {
    const runs: string[] = [];
    let fail = true;
    const { host, read, kv } = await migrating(2, (ext) =>
      ext.migration(1, async (tx) => {
        if (fail) {
          tx.put("note", "half-done");
          throw new Error("disk says no");
        }
        await noteToObject(runs)(tx);
      }),
    );
    host.services.seedKV(NS, "note", "hello");
    const failed = await read();
    // The same code, message and data as the Go and Python SDKs answer.
    assert.deepEqual(failed, {
      code: -32603,
      error: 'tool "read_note" failed: MigrationError: kv_migration_failed: kv migration from version 1 to 2 failed: disk says no',
      data: { tool: "read_note", exception: "MigrationError" },
    });
    assert.equal(kv("note"), "hello");
    assert.equal(kv(KV_VERSION_KEY), undefined);
    fail = false;
    assert.deepEqual(await read(), { note: { text: "hello" } });
  });

  it("name a missing step", async () => {
    const runs: string[] = [];
    const { host, read, kv } = await migrating(3, (ext) => ext.migration(1, noteToObject(runs)));
    host.services.seedKV(NS, "note", "hello");
    const failed = await read();
    const want = 'tool "read_note" failed: MigrationError: kv_migration_missing: no kv migration from version 2 to 3 is registered (stored kv_version 2, declared 3)';
    assert.equal(failed.error, want);
    assert.equal(kv(KV_VERSION_KEY), 2);
    assert.deepEqual(runs, ["ran"]);
  });

  it("leave the other generation's result when it migrates first", async () => {
    const { host, read } = await migrating(2, (ext, h) =>
      ext.migration(1, (tx) => {
        h().services.seedKV(NS, "note", { text: "theirs" });
        h().services.seedKV(NS, KV_VERSION_KEY, 2);
        tx.put("note", { text: "mine" });
      }),
    );
    host.services.seedKV(NS, "note", "hello");
    assert.deepEqual(await read(), { note: { text: "theirs" } });
  });

  it("refuse a stored version that is not one", async () => {
    for (const [stored, shown] of [["two", '"two"'], [1.5, "1.5"], [-1, "-1"], [true, "true"], [{ v: 2 }, '{"v":2}']] as [JsonValue, string][]) {
      const runs: string[] = [];
      const { host, read, kv } = await migrating(2, (ext) => ext.migration(1, noteToObject(runs)));
      host.services.seedKV(NS, "note", "hello");
      host.services.seedKV(NS, KV_VERSION_KEY, stored);
      const failed = await read();
      assert.equal(failed.error, `tool "read_note" failed: MigrationError: kv_migration_failed: kv migration from version 0 to 2 failed: the stored octet:kv_version is ${shown}, not a non-negative integer`);
      assert.equal(kv("note"), "hello");
      assert.deepEqual(runs, []);
    }
  });

  it("run the step once under concurrent first calls", async () => {
    const runs: string[] = [];
    const { host, read } = await migrating(2, (ext) => ext.migration(1, noteToObject(runs)));
    host.services.seedKV(NS, "note", "hello");
    const all = await Promise.all([read(), read(), read(), read()]);
    for (const r of all) assert.deepEqual(r, { note: { text: "hello" } });
    assert.deepEqual(runs, ["ran"]);
  });

  it("word a host refusal as everywhere", async () => {
    const { read } = await migrating(2, (ext) => ext.migration(1, (tx) => tx.put("note", 1, "someone-else")));
    const failed = await read();
    assert.ok(failed.error?.startsWith('tool "read_note" failed: MigrationError: kv_migration_failed: kv migration from version 1 to 2 failed: host error -32602: '), failed.error);
  });

  it("check registrations", () => {
    const ext = new Extension();
    assert.throws(() => ext.migration(0, () => {}), /start at version 1/);
    ext.migration(1, () => {});
    assert.throws(() => ext.migration(1, () => {}), /twice/);
    assert.throws(() => ext.migration(1.5, () => {}), /start at version 1/);
    const tx = new MigrationTx(async () => null, NS);
    assert.throws(() => tx.put(KV_VERSION_KEY, 3), /the SDK does/);
  });
});
