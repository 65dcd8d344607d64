// Reverse calls: negotiation gates, parent correlation, local bounds, and result checks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Extension, FeatureUnavailableError, ProtocolError, RemoteError, ValidationError, type JsonObject, type RequestContext } from "../src/index.js";
import { ScriptedHost, type HostOptions } from "../src/testing/index.js";
import { manifest } from "./helpers.js";

const TOKEN = "a".repeat(64);

/** An extension with one tool `run` whose body is `body`; returns the host and a caller. */
async function withTool(body: (ext: Extension, ctx: RequestContext) => Promise<unknown> | unknown, options: Partial<HostOptions> = {}, contributes: JsonObject = {}) {
  const ext = new Extension();
  ext.tool({ name: "run", description: "" }, async (_args, ctx) => {
    const value = await body(ext, ctx);
    return { content: "ok", metadata: { value: (value ?? null) as JsonObject } };
  });
  const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: ["run"], notifications: true, confirmations: true, presentation: true, context: true, ui: ["status"], ...contributes }), ...options });
  const init = await host.initialize();
  assert.equal(init.error, undefined, JSON.stringify(init.error));
  const run = async () => {
    const r = await host.callTool("run");
    return r.error ?? ((r.result as JsonObject)["metadata"] as JsonObject)["value"];
  };
  return { ext, host, run };
}

describe("host services", () => {
  it("policy: ask with a token, then the exact retry with approvalToken", async () => {
    let calls = 0;
    const { host, run } = await withTool(
      async (ext) => {
        const intent = { kind: "external_side_effect", operation: "browser.submit_form", target: { origin: "https://example.com" } };
        let decision = await ext.policy.evaluate(intent);
        if (decision.decision === "ask" && decision.approval_token) decision = await ext.policy.evaluate(intent, { approvalToken: decision.approval_token });
        return decision.decision;
      },
      { script: { policy: (p) => (++calls === 1 ? { decision: "ask", approval_token: TOKEN } : p["approval_token"] === TOKEN ? { decision: "allow" } : { decision: "deny" }) } },
    );
    assert.equal(await run(), "allow");
    const sent = host.sent("policy/evaluate").map((f) => f["params"] as JsonObject);
    assert.equal(sent[1]!["approval_token"], TOKEN);
    assert.equal(typeof sent[0]!["parent_request_id"], "number");
  });

  it("policy: a token with allow is a protocol error; a malformed token is refused locally", async () => {
    const { run } = await withTool(
      async (ext) => {
        await assert.rejects(ext.policy.evaluate({ kind: "k", operation: "o" }, { approvalToken: "XYZ" }), ValidationError);
        await assert.rejects(ext.policy.evaluate({ kind: "k", operation: "o" }), ProtocolError);
        return "checked";
      },
      { script: { policy: () => ({ decision: "allow", approval_token: TOKEN }) } },
    );
    assert.equal(await run(), "checked");
  });

  it("features that were not negotiated fail locally, naming the feature", async () => {
    const { run } = await withTool(
      async (ext) => {
        await assert.rejects(ext.secrets.get("x"), (e) => e instanceof FeatureUnavailableError && /'secrets'/.test(e.message));
        await assert.rejects(ext.artifacts.publish({ mimeType: "image/png", data: new Uint8Array(1) }), /'artifacts'/);
        await assert.rejects(ext.agents.spawn("t", "m", {} as never), /'agent_sessions'/);
        await assert.rejects(ext.kv.get("k"), /'kv'/);
        return "gated";
      },
      { optionalFeatures: [] },
    );
    assert.equal(await run(), "gated");
  });

  it("progress is a no-op without request_progress and numbered 1.. with it", async () => {
    const off = await withTool((_e, ctx) => ctx.progress({ message: "x" }), { optionalFeatures: [] });
    assert.equal(await off.run(), false);
    const on = await withTool(async (ext, ctx) => {
      const first = ctx.progress({ message: "a" });
      await Promise.resolve();
      return [first, ext.progress.output("stderr", "d")];
    });
    assert.deepEqual(await on.run(), [true, true]);
    assert.deepEqual(on.host.sent("$/progress").map((f) => (f["params"] as JsonObject)["sequence"]), [1, 2]);
    assert.throws(() => on.ext.progress.report({ message: "outside" }), /needs a running handler/);
    const bad = await withTool((_e, ctx) => ctx.progress({ current: -1 }));
    assert.equal(((await bad.run()) as JsonObject)["code"], -32602);
  });

  it("reverse calls outside a handler need an explicit parent", async () => {
    const { ext, host } = await withTool(() => null);
    await assert.rejects(ext.ui.requestInput("name?"), /needs a parent request/);
    const answer = ext.ui.requestInput("name?", { parent: 42 });
    const frame = await host.waitFor((f) => f["method"] === "input/request");
    assert.equal((frame["params"] as JsonObject)["parent_request_id"], 42);
    assert.deepEqual(await answer, { value: null });
  });

  it("input values over 256 KiB are refused as a protocol error", async () => {
    const { run } = await withTool(async (ext) => {
      await assert.rejects(ext.ui.requestInput("big?"), (e) => e instanceof ProtocolError && /262144/.test(e.message));
      await assert.rejects(ext.ui.requestInput("x".repeat(16385)), (e) => e instanceof ValidationError && e.path === "/prompt");
      return "ok";
    }, { script: { input: () => "x".repeat(262145) } });
    assert.equal(await run(), "ok");
  });

  it("artifacts: traversal inside a handler answers -32602; host errors surface as RemoteError", async () => {
    const trav = await withTool((ext) => ext.artifacts.publish({ mimeType: "image/png", path: "../secret", size: 1, sha256: TOKEN }));
    const err = (await trav.run()) as JsonObject;
    assert.equal(err["code"], -32602);
    assert.match(String(err["message"]), /leaves the scratch directory/);
    const abs = await withTool((ext) => ext.artifacts.publish({ mimeType: "image/png", path: "/etc/passwd", size: 1, sha256: TOKEN }));
    assert.match(String(((await abs.run()) as JsonObject)["message"]), /absolute/);
    const remote = await withTool(async (ext) => {
      await assert.rejects(ext.artifacts.publish({ mimeType: "image/png", data: new Uint8Array([1]) }), (e) => e instanceof RemoteError && e.code === -32002);
      return "ok";
    }, { script: { respond: (m) => (m === "artifact/publish" ? { error: { code: -32002, message: "no owner" } } : undefined) } });
    assert.equal(await remote.run(), "ok");
  });

  it("child sessions: every helper sends its wire shape; local bounds refuse bad input", async () => {
    const { host, run } = await withTool(async (ext) => {
      const policy = { tools: ["read", "search"], max_depth: 1, max_concurrent_children: 2, max_turns: 8, max_tokens: null, max_cost_microdollars: 1, max_output_bytes: 10, timeout_ms: 100 } as const;
      const child = await ext.agents.spawn("inspect", "look", { profile: "review", fingerprint: TOKEN, idempotencyKey: "k", policy: { ...policy, tools: [...policy.tools] }, modelSelection: { provider: "p" } });
      const steered = await ext.agents.message(child.agent_id, "more");
      const followed = await ext.agents.followUp(child.agent_id, "again");
      const models = await ext.agents.models({ query: "e", limit: 5 });
      const listed = await ext.agents.list();
      const waited = await ext.agents.wait();
      const interrupted = await ext.agents.interrupt(child.agent_id);
      await assert.rejects(ext.agents.wait({ timeoutMs: 60001 }), /timeout_ms/);
      await assert.rejects(ext.agents.message(child.agent_id, ""), /message/);
      await assert.rejects(ext.agents.spawn("x", "m", { idempotencyKey: "k", policy: { ...policy, tools: ["read"], max_tokens: 999 } }), /max_tokens/);
      await assert.rejects(ext.agents.models({ limit: 201 }), /limit/);
      return [steered.accepted, followed.accepted, models.models.length, listed.agents.length, waited.timed_out, interrupted.interrupted];
    });
    assert.deepEqual(await run(), [true, true, 1, 1, false, true]);
    const spawn = host.sent("agent/spawn")[0]!["params"] as JsonObject;
    assert.equal(spawn["profile"], "review");
    assert.equal((spawn["policy"] as JsonObject)["max_tokens"], null);
    assert.equal((host.sent("agent/wait")[0]!["params"] as JsonObject)["timeout_ms"], 30000);
    assert.equal((host.sent("agent/models")[0]!["params"] as JsonObject)["limit"], 5);
  });

  it("notify, confirm, contributions and presentation send their frames", async () => {
    const { ext, host, run } = await withTool(async (ext) => {
      ext.ui.notify("Ready", { level: "success", title: "t" });
      return (await ext.ui.confirm("Continue?", { destructive: true })).confirmed;
    }, { script: { confirm: () => true } });
    assert.equal(await run(), true);
    assert.deepEqual(host.sent("notification")[0]!["params"], { message: "Ready", level: "success", title: "t" });
    ext.ui.contributeContext([{ label: "l", content: "c", placement: "prompt_prefix" }]);
    ext.ui.contributeStatus("status", "busy", { priority: 1 });
    ext.presentation.update({ revision: 0, status: { state: "active", label: "ready" }, activities: [], actions: [] }, { resourceOwner: { session_id: "s", extension_instance_id: "i", process_generation: 0 } });
    assert.throws(() => ext.presentation.update({ revision: 1, activities: [], actions: [] }, { parent: 1, resourceOwner: { session_id: "s", extension_instance_id: "i", process_generation: 0 } }), /mutually exclusive/);
    await host.waitFor((f) => f["method"] === "presentation/update");
    const update = host.sent("presentation/update")[0]!["params"] as JsonObject;
    assert.ok("resource_owner" in update && !("parent_request_id" in update));
    ext.presentation.update({ revision: 2, activities: [], actions: [] });
    await host.waitFor((f) => f["method"] === "presentation/update" && ((f["params"] as JsonObject)["snapshot"] as JsonObject)["revision"] === 2);
    assert.equal(host.sent("context/contribution").length, 1);
    assert.equal(host.sent("status/contribution").length, 1);
    assert.throws(() => ext.ui.notify("x".repeat(4097)), /4096/);
    assert.throws(() => ext.presentation.update({ revision: 2, activities: [], actions: [] }), /not above the last published revision 2/);
  });

  it("kv: local checks before the wire, conflicts as RemoteError with data", async () => {
    const { run } = await withTool(async (ext) => {
      await assert.rejects(ext.kv.get("k", { namespace: "other" }), (e) => e instanceof RemoteError && e.code === -32602);
      await assert.rejects(ext.kv.get(""), (e) => e instanceof ValidationError && e.path === "/key");
      await assert.rejects(ext.kv.commit([]), (e) => e instanceof ValidationError && e.path === "/writes");
      await assert.rejects(ext.kv.commit(Array.from({ length: 257 }, (_, i) => ({ op: "delete" as const, namespace: "t", key: `k${i}` }))), (e) => e instanceof ValidationError && e.path === "/writes");
      const put = await ext.kv.commit([{ op: "put", namespace: "t.sub", key: "k", value: [1] }]);
      const listed = await ext.kv.list("", { namespace: "t.sub" });
      let conflict: unknown;
      await ext.kv.transaction({ namespace: "t.sub" }).expectAbsent("k").delete("k").commit().catch((e) => (conflict = e));
      assert.ok(conflict instanceof RemoteError && conflict.code === -32005);
      return [put.versions.length, listed.entries.length, (conflict as RemoteError).data as JsonObject];
    });
    const [n, listed, data] = (await run()) as [number, number, JsonObject];
    assert.deepEqual([n, listed], [1, 1]);
    assert.equal(data["expected"], null);
    assert.match(String(data["actual"]), /^[0-9a-f]{64}$/);
  });
});
