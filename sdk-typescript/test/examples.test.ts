// Every example, started through its launcher as the host would (cwd elsewhere, env set), with
// the manifest it ships, doing the thing it exists to show.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import type { JsonObject } from "../src/index.js";
import { ScriptedHost, type HostScript } from "../src/testing/index.js";
import { PKG } from "./helpers.js";
import { readManifest } from "./toml.js";

const EXAMPLES = resolve(PKG, "../examples/typescript");

const started: ScriptedHost[] = [];
// A failed assertion must not leave a child process holding the test file open.
after(() => {
  for (const h of started) h.kill();
});

async function start(name: string, script: HostScript = {}): Promise<ScriptedHost> {
  const dir = join(EXAMPLES, name);
  const manifest = readManifest(join(dir, "extension.toml"));
  const scratch = mkdtempSync(join(tmpdir(), `octet-${name}-`));
  const host = ScriptedHost.spawn(join(dir, "launch"), [], {
    manifest,
    script: { scratchDir: scratch, ...script },
    cwd: tmpdir(),
    env: { OCTET_EXTENSION_DIR: dir, OCTET_EXTENSION_SCRATCH: scratch, OCTET_EXTENSION_API_VERSION: "0.4", OCTET_WORKSPACE: PKG },
  });
  started.push(host);
  const init = await host.initialize();
  assert.equal(init.error, undefined, `${name}: ${JSON.stringify(init.error)} ${host.stderr.join("\n")}`);
  return host;
}

async function stop(host: ScriptedHost): Promise<void> {
  assert.deepEqual((await host.shutdown({ reason: "host_exit" })).result, {});
  assert.equal((await host.exited).code, 0);
}

const text = (r: { result?: unknown }) => (((r.result as JsonObject)["content"] as JsonObject[])[0] as JsonObject)["text"];

describe("examples", () => {
  it("hello-world greets", async () => {
    const host = await start("hello-world");
    assert.equal(text(await host.callTool("hello_world", { name: "Ada" })), "Hello, Ada!");
    assert.equal((await host.callTool("hello_world", { name: 7 })).error?.code, -32602);
    await stop(host);
  });

  it("git-tools: tool, command and renderer", async () => {
    const host = await start("git-tools");
    const status = await host.callTool("git_status", {});
    assert.equal(typeof ((status.result as JsonObject)["structured_content"] as JsonObject)["changed"], "number");
    const rendered = await host.request("tool/render", { name: "git_status", arguments: {}, result: { content: [{ type: "text", text: "" }], structured_content: { changed: 2 } } });
    assert.deepEqual(rendered.result, { segments: [{ text: "2 changed", style_role: "warning" }] });
    const cmd = await host.request("command/execute", { name: "checkpoint", arguments: ["--", "no-such-path"] });
    assert.equal(typeof (cmd.result as JsonObject)["text"], "string");
    await stop(host);
  });

  it("fetch-many reports progress and stops when cancelled", async () => {
    const host = await start("fetch-many");
    const r = await host.callTool("fetch_many", { items: ["a", "b", "c"], delay_ms: 1 });
    assert.equal(text(r), "record:a\nrecord:b\nrecord:c");
    assert.equal(host.sent("$/progress").length, 3);
    const id = host.peekNextId();
    const slow = host.callTool("fetch_many", { items: ["x", "y"], delay_ms: 10000 });
    host.cancel(id);
    assert.equal((await slow).error?.code, -32800);
    await stop(host);
  });

  it("capture publishes a PNG inline and by path", async () => {
    const host = await start("capture");
    for (const via of ["inline", "path"]) {
      const r = await host.callTool("capture", { size: 4, via });
      const result = r.result as JsonObject;
      assert.equal(((result["content"] as JsonObject[])[1] as JsonObject)["type"], "image", JSON.stringify(r));
      const id = ((result["content"] as JsonObject[])[1] as JsonObject)["artifact_id"] as string;
      assert.equal(host.services.artifacts.get(id)!.subarray(1, 4).toString(), "PNG");
    }
    await stop(host);
  });

  it("dynamic-provider-search adds, calls and removes a tool", async () => {
    const host = await start("dynamic-provider-search");
    const sel = await host.callTool("select_provider", { provider: "alpha" });
    assert.equal(((sel.result as JsonObject)["structured_content"] as JsonObject)["revision"], 1);
    assert.equal(text(await host.callTool("provider_search", { query: "q" }, { catalog_revision: 1 })), "alpha results for q");
    await host.callTool("select_provider", { provider: "none" });
    assert.equal((await host.callTool("provider_search", { query: "q" }, { catalog_revision: 2 })).error?.code, -32602);
    await stop(host);
  });

  it("orchestrate spawns, steers and waits for a child", async () => {
    const host = await start("orchestrate");
    assert.equal(text(await host.callTool("orchestrate", {})), "Observed 1 owned child sessions.");
    assert.deepEqual(host.sent().filter((f) => String(f["method"] ?? "").startsWith("agent/")).map((f) => f["method"]), [
      "agent/spawn", "agent/message", "agent/follow_up", "agent/wait", "agent/list",
    ]);
    await stop(host);
  });

  it("lifecycle-counting counts running turns", async () => {
    const host = await start("lifecycle-counting");
    const protocol = ((host.frames[1]!.frame as JsonObject)["result"] as JsonObject)["protocol"] as JsonObject;
    // Subscriptions are listed in the LifecycleEvent enum order (schema/vectors/negotiation).
    assert.deepEqual(protocol["lifecycle_events"], ["session/settled", "turn/started", "turn/settled"]);
    host.notify("turn/started", { session_id: "s", turn_id: "t1" });
    host.notify("turn/started", { session_id: "s", turn_id: "t2" });
    host.notify("turn/settled", { session_id: "s", turn_id: "t1", outcome: "completed" });
    assert.equal(((await host.request("status/collect", { surface: "status" })).result as JsonObject)["text"], "1 turn(s) running");
    host.notify("session/settled", { session_id: "s", outcome: "completed" });
    assert.equal(((await host.request("status/collect", { surface: "status" })).result as JsonObject)["text"], "0 turn(s) running");
    await stop(host);
  });

  it("policy-and-secrets retries with the approval token and never returns the secret", async () => {
    const token = "b".repeat(64);
    const host = await start("policy-and-secrets", {
      policy: (p) => (p["approval_token"] === token ? { decision: "allow" } : { decision: "ask", approval_token: token }),
      confirm: () => true,
      secrets: { "demo.api_token": "sekrit-value" },
    });
    const r = await host.callTool("submit_comment", { text: "hi" });
    assert.match(String(text(r)), /^Submitted \(2 chars, signature [0-9a-f]{12}\)\.$/);
    assert.ok(!JSON.stringify(host.frames.filter((f) => f.dir === "out")).includes("sekrit-value"));
    await stop(host);
    assert.ok(!host.stderr.join("\n").includes("sekrit-value"));
  });
});
