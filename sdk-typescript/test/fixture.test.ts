// The conformance fixture over both transports: the in-process loopback host and a real child
// process started through the example's launcher. Same checks, same expectations.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it, before, after } from "node:test";
import type { JsonObject } from "../src/index.js";
import type { ScriptedHost } from "../src/testing/index.js";
import { METHODS } from "../src/generated/methods.js";
import { validate } from "../src/generated/validate.js";
import { FIXTURE_MANIFEST, MODES, startFixture } from "./helpers.js";

const sha256 = (s: string | Uint8Array) => createHash("sha256").update(s).digest("hex");
const OWNER = { session_id: "s1", extension_instance_id: "i1", process_generation: 1 };

for (const mode of MODES) {
  describe(`conformance fixture over ${mode}`, () => {
    let host: ScriptedHost;
    before(async () => {
      host = await startFixture(mode, {
        script: {
          confirm: (p) => p["message"] === "yes?",
          input: (p) => (p["secret"] === true ? "hunter2" : `typed:${String(p["prompt"])}`),
          secrets: { "fixture.token": "tok-value" },
        },
      });
      const init = await host.initialize();
      assert.equal(init.error, undefined, JSON.stringify(init.error));
    });
    after(async () => {
      host.kill();
      await host.exited;
    });

    it("answers initialize with the manifest's identity and the negotiated subset", () => {
      const init = host.frames.find((f) => f.dir === "out" && typeof f.frame === "object" && f.frame["id"] === 1)!.frame as JsonObject;
      const result = init["result"] as JsonObject;
      assert.equal(result["api_version"], "0.4");
      assert.equal(result["name"], "conformance-fixture");
      const protocol = result["protocol"] as JsonObject;
      const features = protocol["features"] as string[];
      assert.ok(features.includes("request_cancellation") && features.includes("content_parts") && features.includes("kv"));
      assert.ok(features.includes("lifecycle_events"), "a lifecycle handler exists");
      assert.deepEqual(protocol["lifecycle_events"], ["turn/settled"]);
      const declared = (FIXTURE_MANIFEST["contributes"] as JsonObject)["tools"] as string[];
      const answered = (result["tools"] as JsonObject[]).map((t) => t["name"] as string);
      assert.deepEqual([...answered].sort(), [...declared].sort());
    });

    it("echo returns the value as structured content", async () => {
      const r = await host.callTool("echo", { value: { a: [1, "two", null] } });
      assert.deepEqual(r.result, { content: [{ type: "text", text: "echo" }], structured_content: { value: { a: [1, "two", null] } } });
    });

    it("typed validates arguments (-32602 naming the path) and output", async () => {
      const ok = await host.callTool("typed", { count: 3, label: "n" });
      assert.deepEqual(ok.result, { content: [{ type: "text", text: "n:3" }], structured_content: { count: 3 } });
      const wrongType = await host.callTool("typed", { count: "3", label: "n" });
      assert.equal(wrongType.error?.code, -32602);
      assert.deepEqual((wrongType.error?.data as JsonObject)["path"], "/arguments/count");
      const extra = await host.callTool("typed", { count: 1, label: "n", more: true });
      assert.deepEqual(extra.error, {
        code: -32602,
        message: 'invalid arguments: (root): unexpected property "more"',
        data: { keyword: "additionalProperties", path: "/arguments", pointer: "", reason: 'unexpected property "more"' },
      });
      const missing = await host.callTool("typed", { count: 1 });
      assert.equal(missing.error!.message, 'invalid arguments: (root): missing required property "label"');
      const fractional = await host.callTool("typed", { count: 1.5, label: "n" });
      assert.equal(fractional.error?.code, -32602);
    });

    it("fail_with carries code, message and data verbatim", async () => {
      const r = await host.callTool("fail_with", { code: 4001, message: "nope", data: { why: ["x"] } });
      assert.deepEqual(r.error, { code: 4001, message: "nope", data: { why: ["x"] } });
      const reserved = await host.callTool("fail_with", { code: -32001, message: "mine" });
      assert.equal(reserved.error?.code, -32602, "a reserved code is refused, not forwarded");
    });

    it("slow answers -32800 when cancelled, and the late result is never written", async () => {
      const id = host.peekNextId();
      const pending = host.callTool("slow", { ms: 10000 });
      host.cancel(id);
      const r = await pending;
      assert.equal(r.error?.code, -32800);
      const quick = await host.callTool("slow", { ms: 1 });
      assert.deepEqual(quick.result, { content: [{ type: "text", text: "slept" }] });
      assert.equal(host.sent().filter((f) => f["id"] === id).length, 1, "exactly one answer for the cancelled id");
    });

    it("progress_n emits sequences 1..n before the result", async () => {
      const id = host.peekNextId();
      const r = await host.callTool("progress_n", { n: 3 });
      assert.deepEqual(r.result, { content: [{ type: "text", text: "done" }] });
      const events = host.sent("$/progress").map((f) => f["params"] as JsonObject).filter((p) => p["parent_request_id"] === id);
      assert.deepEqual(events.map((e) => e["sequence"]), [1, 2, 3]);
      assert.deepEqual(events[2]!["event"], { type: "status", message: "step 3", current: 3, total: 3 });
    });

    it("callback_n makes nested kv.get calls while serving", async () => {
      const r = await host.callTool("callback_n", { n: 3 });
      assert.deepEqual((r.result as JsonObject)["structured_content"], { calls: 3 });
      const gets = host.sent("kv.get");
      assert.ok(gets.length >= 3);
      assert.match(String(gets[0]!["id"]), /^ts:\d+$/, "extension ids are ts: strings on 0.4");
    });

    it("big_result over the frame bound answers -32603 naming size and limit", async () => {
      const r = await host.callTool("big_result", { bytes: 1048576 });
      assert.equal(r.error?.code, -32603);
      assert.match(r.error!.message, /exceeds the message limit of 1048576 bytes/);
      assert.ok(!host.frames.some((f) => f.dir === "out" && typeof f.frame === "string"), "no oversized frame was written");
      const small = await host.callTool("big_result", { bytes: 10 });
      assert.equal(((small.result as JsonObject)["content"] as JsonObject[])[0]!["text"], "xxxxxxxxxx");
    });

    it("publish inline and by path; corrupt fields propagate the host's error", async () => {
      const expected = new Uint8Array(600).map((_, i) => i % 251);
      const inline = await host.callTool("publish", { bytes: 600, mode: "inline" });
      const sc = (inline.result as JsonObject)["structured_content"] as JsonObject;
      assert.equal(sc["size"], 600);
      assert.equal(sc["sha256"], sha256(expected));
      const path = await host.callTool("publish", { bytes: 600, mode: "path", mime_type: "image/png" });
      assert.equal(((path.result as JsonObject)["structured_content"] as JsonObject)["sha256"], sha256(expected));
      const lie = await host.callTool("publish", { bytes: 600, mode: "path", corrupt: "sha256" });
      assert.equal(lie.error?.code, -32602);
      assert.match(lie.error!.message, /sha256/);
      const lieSize = await host.callTool("publish", { bytes: 600, mode: "path", corrupt: "size" });
      assert.equal(lieSize.error?.code, -32602);
      const tooBig = await host.callTool("publish", { bytes: 262145, mode: "inline" });
      assert.equal(tooBig.error?.code, -32602, "inline over 256 KiB is refused locally");
    });

    it("dynamic tools: register, call pinned revisions, unregister, retired revisions", async () => {
      const reg = await host.callTool("register_dynamic", { name: "dyn", text: "first" });
      const r1 = ((reg.result as JsonObject)["structured_content"] as JsonObject)["revision"] as number;
      assert.equal(r1, 1);
      const reg2 = await host.callTool("register_dynamic", { name: "dyn", text: "second" });
      assert.equal(((reg2.result as JsonObject)["structured_content"] as JsonObject)["revision"], 2);
      const old = await host.callTool("dyn", {}, { catalog_revision: 1 });
      assert.deepEqual(old.result, { content: [{ type: "text", text: "first" }] });
      const latest = await host.callTool("dyn", {});
      assert.deepEqual(latest.result, { content: [{ type: "text", text: "second" }] });
      await host.callTool("unregister_dynamic", { name: "dyn" });
      const gone = await host.callTool("dyn", {}, { catalog_revision: 3 });
      assert.equal(gone.error?.code, -32602);
      const unknown = await host.callTool("dyn", {}, { catalog_revision: 99 });
      assert.equal(unknown.error?.code, -32602);
      assert.match(unknown.error!.message, /catalog revision 99 is unknown or retired/);
      for (let i = 0; i < 8; i++) await host.callTool("register_dynamic", { name: `d${i}`, text: "t" });
      const retired = await host.callTool("dyn", {}, { catalog_revision: 1 });
      assert.equal(retired.error?.code, -32602, "revision 1 fell out of the 8 retained catalogs");
      const kept = await host.callTool("d7", {}, { catalog_revision: 11 });
      assert.deepEqual(kept.result, { content: [{ type: "text", text: "t" }] });
    });

    it("ask: confirm, input, secret input digest", async () => {
      const yes = await host.callTool("ask", { kind: "confirm", prompt: "yes?" });
      assert.deepEqual(((yes.result as JsonObject)["structured_content"] as JsonObject), { answer: true });
      const input = await host.callTool("ask", { kind: "input", prompt: "name" });
      assert.deepEqual(((input.result as JsonObject)["structured_content"] as JsonObject), { answer: "typed:name" });
      const secret = await host.callTool("ask", { kind: "input", prompt: "pw", secret: true });
      assert.deepEqual(((secret.result as JsonObject)["structured_content"] as JsonObject), { answer_sha256: sha256("hunter2") });
      const req = host.sent("input/request").at(-1)!;
      assert.equal(typeof (req["params"] as JsonObject)["parent_request_id"], "number", "parent is the host's request id");
      const blank = await host.callTool("ask", { kind: "input", prompt: "   " });
      assert.equal(blank.error?.code, -32602, "whitespace prompt refused locally");
    });

    it("secret returns only the digest; unknown secrets propagate -32004", async () => {
      const r = await host.callTool("secret", { name: "fixture.token" });
      assert.deepEqual(((r.result as JsonObject)["structured_content"] as JsonObject), { sha256: sha256("tok-value") });
      assert.ok(!JSON.stringify(host.sent()).includes("tok-value") || host.sent().every((f) => f["method"] !== undefined || !JSON.stringify(f["result"] ?? "").includes("tok-value")));
      const missing = await host.callTool("secret", { name: "fixture.other" });
      assert.equal(missing.error?.code, -32004);
      const bad = await host.callTool("secret", { name: "../etc" });
      assert.equal(bad.error?.code, -32602);
    });

    it("present publishes with the parent; local limits answer -32602", async () => {
      const id = host.peekNextId();
      const r = await host.callTool("present", { revision: 1, activities: 2 });
      assert.equal(r.error, undefined);
      const upd = host.sent("presentation/update").at(-1)!["params"] as JsonObject;
      assert.equal(upd["parent_request_id"], id);
      assert.equal(((upd["snapshot"] as JsonObject)["activities"] as unknown[]).length, 2);
      const tooMany = await host.callTool("present", { revision: 2, activities: 129 });
      assert.equal(tooMany.error?.code, -32602);
      const stale = await host.callTool("present", { revision: 1, activities: 0 });
      assert.equal(stale.error?.code, -32602, "revisions must increase");
    });

    it("spawn_child spawns with the fixed policy and waits", async () => {
      const r = await host.callTool("spawn_child", { task_name: "look", message: "go", key: "k1" });
      assert.deepEqual(((r.result as JsonObject)["structured_content"] as JsonObject), { agent_id: "agent-1", timed_out: false });
      const spawn = host.sent("agent/spawn").at(-1)!["params"] as JsonObject;
      assert.deepEqual(spawn["policy"], {
        tools: ["read"], max_depth: 1, max_concurrent_children: 1, max_turns: 1, max_tokens: null, max_cost_microdollars: 0, max_output_bytes: 4096, timeout_ms: 10000,
      });
      const wait = host.sent("agent/wait").at(-1)!["params"] as JsonObject;
      assert.equal(wait["timeout_ms"], 1000);
      const badName = await host.callTool("spawn_child", { task_name: "Bad Name", message: "go", key: "k2" });
      assert.equal(badName.error?.code, -32602);
    });

    it("kv_commit and kv_get pass through, conflicts and foreign namespaces propagate", async () => {
      const put = await host.callTool("kv_commit", { writes: [{ op: "put", namespace: "conformance-fixture", key: "a", value: { n: 1 } }] });
      const version = (((put.result as JsonObject)["structured_content"] as JsonObject)["versions"] as JsonObject[])[0]!["version"];
      assert.match(String(version), /^[0-9a-f]{64}$/);
      const got = await host.callTool("kv_get", { namespace: "conformance-fixture", key: "a" });
      assert.deepEqual(((got.result as JsonObject)["structured_content"] as JsonObject), { found: true, value: { n: 1 }, version });
      const conflict = await host.callTool("kv_commit", {
        preconditions: [{ namespace: "conformance-fixture", key: "a", absent: true }],
        writes: [{ op: "delete", namespace: "conformance-fixture", key: "a" }],
      });
      assert.equal(conflict.error?.code, -32005);
      const foreign = await host.callTool("kv_get", { namespace: "other", key: "a" });
      assert.equal(foreign.error?.code, -32602);
    });

    it("command, hooks, context, status and renderer answer their shapes", async () => {
      assert.deepEqual((await host.request("command/execute", { name: "fixture_cmd", arguments: ["a", "b"] })).result, { text: "a b" });
      assert.deepEqual((await host.request("hook/run", { hook: "before_prompt", payload: { prompt: "p" }, resource_owner: OWNER })).result, { disposition: { action: "continue" } });
      assert.deepEqual((await host.request("hook/run", { hook: "after_tool_call", payload: { name: "x", arguments: {}, output: "", is_error: false } })).result, {});
      assert.deepEqual((await host.request("context/collect", {})).result, { items: [{ label: "fixture", content: "fixture context", placement: "system_suffix" }] });
      assert.deepEqual((await host.request("status/collect", { surface: "status" })).result, { surface: "status", text: "fixture ready", priority: 0 });
      assert.deepEqual((await host.request("tool/render", { name: "echo", arguments: {}, result: { content: [{ type: "text", text: "x" }] } })).result, { segments: [{ text: "echo", style_role: null }] });
      assert.equal((await host.request("status/collect", { surface: "footer" })).error?.code, -32602);
      assert.equal((await host.request("nope/nothing", {})).error?.code, -32601);
      assert.deepEqual((await host.request("nope/nothing", {})).error?.data, { method: "nope/nothing" });
    });

    it("params with unknown fields or a bad resource_owner are -32602, checked against the schema", async () => {
      const unknown = await host.request("tool/call", { name: "echo", arguments: { value: 1 }, surprise: true });
      assert.equal(unknown.error?.code, -32602);
      assert.match(unknown.error!.message, /surprise/);
      const owner = await host.callTool("echo", { value: 1 }, { resource_owner: { ...OWNER, session_id: "" } });
      assert.equal(owner.error?.code, -32602);
      assert.equal((owner.error!.data as JsonObject)["path"], "/resource_owner/session_id");
      const render01 = await host.request("tool/render", { name: "echo", arguments: {}, result: { content: "a 0.1 result" } });
      assert.equal(render01.error?.code, -32602);
    });

    it("unknown tools and malformed params are -32602", async () => {
      assert.equal((await host.callTool("no_such_tool", {})).error?.code, -32602);
      assert.equal((await host.request("tool/call", { name: "echo", arguments: [1] })).error?.code, -32602);
      assert.equal((await host.request("tool/call", { name: "echo" })).error?.code, -32602);
    });

    it("lifecycle notifications reach the subscribed handler", async () => {
      host.notify("turn/settled", { session_id: "s", turn_id: "t9", outcome: "completed" });
      // A request after the notification: when it is answered, the observation has been queued.
      await host.callTool("echo", { value: 1 });
      await host.callTool("echo", { value: 2 });
      if (mode === "process") return; // stderr of a child arrives asynchronously; checked in the loopback run
      assert.ok(host.stderr.some((l) => l.includes('"turn settled"') && l.includes("t9")));
    });

    it("every frame the extension sent validates against the generated schema", () => {
      const asked = new Map<unknown, string>();
      for (const f of host.frames) {
        if (f.dir === "in" && typeof f.frame === "object" && typeof f.frame["method"] === "string" && f.frame["id"] !== undefined) asked.set(f.frame["id"], f.frame["method"]);
      }
      const problems: string[] = [];
      for (const frame of host.sent()) {
        const method = frame["method"];
        if (typeof method === "string") {
          const type = METHODS[method]?.params["0.4"];
          if (type === undefined) problems.push(`unknown method ${method}`);
          else for (const e of validate(type, frame["params"])) problems.push(`${method} params: ${e}`);
          continue;
        }
        if (frame["error"] !== undefined) {
          for (const e of validate("ErrorResponse", frame)) problems.push(`error response ${String(frame["id"])}: ${e}`);
          continue;
        }
        const request = asked.get(frame["id"]);
        const type = request === undefined ? undefined : METHODS[request]?.result["0.4"];
        if (type === undefined) problems.push(`result for unknown request ${String(frame["id"])}`);
        else for (const e of validate(type, frame["result"])) problems.push(`${request} result: ${e}`);
      }
      assert.deepEqual(problems, []);
    });

    it("a stuck shutdown handler is bounded; shutdown acks and the process exits 0", async () => {
      await host.callTool("arm_stuck_shutdown", {});
      const started = Date.now();
      const ack = await host.shutdown({ reason: "host_exit", deadline_ms: 300 });
      assert.deepEqual(ack.result, {});
      const exit = await host.exited;
      assert.equal(exit.code, 0);
      assert.ok(Date.now() - started < 3000, "bounded by the deadline, not the stuck handler");
    });
  });
}
