// Runtime rules over the in-process loopback: negotiation, admission, cancellation races,
// shutdown and EOF drains, envelope validation, dynamic catalog transactions.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Extension, ProtocolError, RemoteError, ValidationError, type JsonObject } from "../src/index.js";
import { ScriptedHost, type HostOptions } from "../src/testing/index.js";
import { manifest } from "./helpers.js";

function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

async function started(ext: Extension, options: Partial<HostOptions> & { contributes?: JsonObject } = {}): Promise<ScriptedHost> {
  const host = ScriptedHost.inProcess(ext, { manifest: manifest(options.contributes ?? {}), ...options });
  const init = await host.initialize();
  assert.equal(init.error, undefined, JSON.stringify(init.error));
  return host;
}

describe("negotiation", () => {
  it("answers the supported subset of offered features and caps concurrency", async () => {
    const ext = new Extension({ maxConcurrentRequests: 16 });
    const host = ScriptedHost.inProcess(ext, {
      manifest: manifest(),
      optionalFeatures: ["request_progress", "runtime_commands", "from_the_future", "lifecycle_events", "approvals", "kv"],
      maxConcurrentRequests: 2,
    });
    const r = await host.initialize();
    const protocol = (r.result as JsonObject)["protocol"] as JsonObject;
    assert.deepEqual(protocol["features"], ["request_cancellation", "content_parts", "request_progress", "kv"]);
    assert.deepEqual(protocol["limits"], { max_concurrent_requests: 2 });
    assert.equal(ext.negotiatedConcurrency, 2);
    assert.ok(!("lifecycle_events" in protocol), "no lifecycle handler, no subscription");
  });

  it("refuses an unsupported required feature naming it", async () => {
    const host = ScriptedHost.inProcess(new Extension(), { manifest: manifest(), requiredFeatures: ["request_cancellation", "content_parts", "runtime_commands"] });
    const r = await host.initialize();
    assert.equal(r.error?.code, -32602);
    assert.match(r.error!.message, /runtime_commands/);
  });

  it("refuses kv on API 0.2 and a version other than the pinned one", async () => {
    const v02 = ScriptedHost.inProcess(new Extension({ apiVersion: "0.2" }), { manifest: manifest({}, { api_version: "0.2" }), apiVersion: "0.2", optionalFeatures: ["kv"] });
    const ok = await v02.initialize();
    assert.deepEqual(((ok.result as JsonObject)["protocol"] as JsonObject)["features"], ["request_cancellation", "content_parts"]);
    const pinned = ScriptedHost.inProcess(new Extension({ apiVersion: "0.2" }), { manifest: manifest(), apiVersion: "0.4" });
    const r = await pinned.initialize();
    assert.equal(r.error?.code, -32006);
    assert.deepEqual(r.error?.data, { requested: "0.4", supported: ["0.2"] });
  });

  it("refuses a code/manifest mismatch, naming the tool", async () => {
    const ext = new Extension().tool({ name: "a", description: "" }, () => "a");
    const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: ["b"] }), optionalFeatures: [] });
    const r = await host.initialize();
    assert.equal(r.error?.code, -32602);
    assert.match(r.error!.message, /'a' is registered in code but not declared/);
  });

  it("validates initialize params against the schema, naming the path", async () => {
    const host = ScriptedHost.inProcess(new Extension(), { manifest: manifest() });
    const params = host.initializeParams();
    (params["workspace"] as JsonObject)["surprise"] = true;
    const r = await host.request("initialize", params);
    assert.equal(r.error?.code, -32602);
    assert.match(r.error!.message, /surprise/);
    assert.equal((r.error!.data as JsonObject)["path"], "/workspace");
    const noLimits = ScriptedHost.inProcess(new Extension(), { manifest: manifest() });
    const p2 = noLimits.initializeParams();
    delete ((p2["protocol"] as JsonObject)["limits"] as JsonObject)["max_concurrent_requests"];
    assert.equal((await noLimits.request("initialize", p2)).error?.code, -32602);
  });

  it("requires initialize first and only once", async () => {
    const host = ScriptedHost.inProcess(new Extension(), { manifest: manifest() });
    assert.equal((await host.callTool("x")).error?.code, -32600);
    await host.initialize();
    assert.equal((await host.initialize()).error?.code, -32600);
  });

  it("speaks the frozen 0.1 wire: no protocol, string content, integer ids, one worker", async () => {
    const ext = new Extension({ apiVersion: "0.1" });
    ext.tool({ name: "ask", description: "" }, async () => ((await ext.ui.confirm("ok?")).confirmed ? "yes" : "no"));
    const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: ["ask"], confirmations: true }, { api_version: "0.1" }), script: { confirm: () => true } });
    const init = await host.initialize();
    assert.ok(!("protocol" in (init.result as JsonObject)));
    const r = await host.callTool("ask");
    assert.deepEqual(r.result, { content: "yes" });
    const confirm = host.sent("confirmation/request")[0]!;
    assert.equal(typeof confirm["id"], "number");
    assert.ok(!("parent_request_id" in (confirm["params"] as JsonObject)));
    assert.equal(ext.negotiatedConcurrency, 1);
  });
});

describe("API 0.2 and reverse results", () => {
  it("serves the 0.2 wire: ts: ids, parent ids, progress", async () => {
    const ext = new Extension({ apiVersion: "0.2" });
    ext.tool({ name: "ask", description: "" }, async (_a, ctx) => {
      ctx.progress({ message: "asking" });
      return (await ext.ui.confirm("ok?")).confirmed ? "yes" : "no";
    });
    const host = await started(ext, { contributes: { tools: ["ask"], confirmations: true }, apiVersion: "0.2", manifest: manifest({ tools: ["ask"], confirmations: true }, { api_version: "0.2" }), script: { confirm: () => true } });
    const id = host.peekNextId();
    assert.deepEqual((await host.callTool("ask")).result, { content: [{ type: "text", text: "yes" }] });
    const confirm = host.sent("confirmation/request")[0]!;
    assert.match(String(confirm["id"]), /^ts:\d+$/);
    assert.equal((confirm["params"] as JsonObject)["parent_request_id"], id);
    assert.equal(host.sent("$/progress").length, 1);
  });

  it("a host answer that breaks the schema is a ProtocolError, not trusted", async () => {
    const ext = new Extension();
    ext.tool({ name: "ask", description: "" }, async () => String((await ext.ui.confirm("ok?")).confirmed));
    const host = await started(ext, {
      contributes: { tools: ["ask"], confirmations: true },
      script: { respond: (m) => (m === "confirmation/request" ? { result: { confirmed: "yes", extra: 1 } } : undefined) },
    });
    const r = await host.callTool("ask");
    assert.equal(r.error?.code, -32603);
    assert.match(r.error!.message, /confirmation\/request result does not match the schema/);
  });
});

describe("admission and cancellation", () => {
  it("queues behind the pool and answers overloaded when the queue is full", async () => {
    const g = gate();
    const ext = new Extension({ maxConcurrentRequests: 1, maxPendingRequests: 1 });
    ext.tool({ name: "block", description: "" }, async () => {
      await g.wait;
      return "released";
    });
    const host = await started(ext, { contributes: { tools: ["block"] } });
    const first = host.callTool("block");
    const second = host.callTool("block");
    const third = await host.callTool("block");
    assert.equal(third.error?.code, -32001);
    assert.deepEqual(third.error?.data, { limit: 1 });
    g.open();
    assert.deepEqual((await first).result, { content: [{ type: "text", text: "released" }] });
    assert.deepEqual((await second).result, { content: [{ type: "text", text: "released" }] });
  });

  it("cancelling a queued request answers -32800 without running it", async () => {
    const g = gate();
    let runs = 0;
    const ext = new Extension({ maxConcurrentRequests: 1 });
    ext.tool({ name: "block", description: "" }, async () => {
      runs++;
      await g.wait;
      return "done";
    });
    const host = await started(ext, { contributes: { tools: ["block"] } });
    const first = host.callTool("block");
    const queuedId = host.peekNextId();
    const queued = host.callTool("block");
    host.cancel(queuedId);
    assert.equal((await queued).error?.code, -32800);
    g.open();
    await first;
    assert.equal(runs, 1);
  });

  it("a result that already won makes a late cancel a no-op; a cancel that wins drops the late result", async () => {
    const g = gate();
    const ext = new Extension();
    ext.tool({ name: "quick", description: "" }, () => "quick");
    ext.tool({ name: "stubborn", description: "" }, async () => {
      await g.wait; // ignores cancellation on purpose
      return "too late";
    });
    const host = await started(ext, { contributes: { tools: ["quick", "stubborn"] } });
    const quickId = host.peekNextId();
    const quick = await host.callTool("quick");
    host.cancel(quickId);
    assert.deepEqual(quick.result, { content: [{ type: "text", text: "quick" }] });
    const id = host.peekNextId();
    const stubborn = host.callTool("stubborn");
    host.cancel(id);
    assert.equal((await stubborn).error?.code, -32800);
    g.open();
    await host.callTool("quick"); // the stubborn handler has finished by now
    assert.equal(host.sent().filter((f) => f["id"] === id).length, 1);
    assert.equal(host.sent().filter((f) => f["id"] === quickId).length, 1);
  });

  it("cancelling a handler cancels its outstanding reverse call", async () => {
    const ext = new Extension();
    ext.tool({ name: "ask", description: "" }, async (_a, ctx) => ((await ext.ui.confirm("?", { parent: ctx })).confirmed ? "y" : "n"));
    const host = await started(ext, {
      contributes: { tools: ["ask"], confirmations: true },
      script: { respond: (method) => (method === "confirmation/request" ? new Promise(() => undefined) : undefined) },
    });
    const id = host.peekNextId();
    const call = host.callTool("ask");
    const request = await host.waitFor((f) => f["method"] === "confirmation/request");
    host.cancel(id);
    assert.equal((await call).error?.code, -32800);
    const cancel = await host.waitFor((f) => f["method"] === "$/cancelRequest");
    assert.deepEqual(cancel["params"], { id: request["id"] });
  });

  it("an uncaught exception is -32603 naming the tool, the error's name and message; the stack goes to the log only", async () => {
    const ext = new Extension().tool({ name: "boom", description: "" }, () => {
      throw new Error("kaput");
    });
    const host = await started(ext, { contributes: { tools: ["boom"] } });
    const r = await host.callTool("boom");
    assert.deepEqual(r.error, { code: -32603, message: 'tool "boom" failed: Error: kaput', data: { tool: "boom", exception: "Error" } });
    assert.ok(host.stderr.some((l) => l.includes("kaput") && l.includes("stack")));
  });

  it("a result the wire cannot carry is -32603 as in Go and Python (the handler's fault, not the caller's)", async () => {
    const ext = new Extension().tool({ name: "empty", description: "" }, () => ({ content: [] }) as never);
    const host = await started(ext, { contributes: { tools: ["empty"] } });
    const r = await host.callTool("empty");
    assert.equal(r.error?.code, -32603);
    assert.match(r.error!.message, /content parts/);
  });

  it("refuses a duplicate in-flight id", async () => {
    const g = gate();
    const ext = new Extension().tool({ name: "block", description: "" }, async () => {
      await g.wait;
      return "x";
    });
    const host = await started(ext, { contributes: { tools: ["block"] } });
    const first = host.callTool("block", {}, {}, 77);
    host.sendRaw('{"jsonrpc":"2.0","id":77,"method":"tool/call","params":{"name":"block","arguments":{}}}\n');
    const dup = await host.waitFor((f) => f["id"] === 77 && f["error"] !== undefined);
    assert.match(JSON.stringify(dup["error"]), /already in flight/);
    void first; // its waiter receives whichever id-77 answer comes first
    g.open();
    const result = await host.waitFor((f) => f["id"] === 77 && f["result"] !== undefined);
    assert.deepEqual(result["result"], { content: [{ type: "text", text: "x" }] });
  });
});

describe("shutdown and EOF", () => {
  it("refuses new work with -32003, drains in-flight calls, then acks", async () => {
    const g = gate();
    const ext = new Extension().tool({ name: "block", description: "" }, async () => {
      await g.wait;
      return "drained";
    });
    const host = await started(ext, { contributes: { tools: ["block"] } });
    const inflight = host.callTool("block");
    const ack = host.shutdown({ reason: "reload", deadline_ms: 5000 });
    const refused = await host.callTool("block");
    assert.equal(refused.error?.code, -32003);
    g.open();
    assert.deepEqual((await inflight).result, { content: [{ type: "text", text: "drained" }] });
    assert.deepEqual((await ack).result, {});
    assert.equal((await host.exited).code, 0);
  });

  it("cancels what the drain bound leaves, and still acks", async () => {
    const ext = new Extension().tool({ name: "forever", description: "" }, () => new Promise<string>(() => undefined));
    let hookRan = false;
    ext.onShutdown(() => {
      hookRan = true;
    });
    const host = await started(ext, { contributes: { tools: ["forever"] } });
    const stuck = host.callTool("forever");
    const ack = await host.shutdown({ deadline_ms: 30 });
    assert.equal((await stuck).error?.code, -32800);
    assert.deepEqual(ack.result, {});
    assert.ok(hookRan);
  });

  it("stdin EOF during a call drains within the bound and exits 0", async () => {
    const ext = new Extension({ shutdownDrainMs: 40 }).tool({ name: "forever", description: "" }, () => new Promise<string>(() => undefined));
    const host = await started(ext, { contributes: { tools: ["forever"] } });
    const stuck = host.callTool("forever");
    await host.waitFor((f) => f["id"] === 1);
    host.end();
    assert.equal((await stuck).error?.code, -32800, "cancelled after the drain bound");
    const exit = await host.exited;
    assert.deepEqual([exit.code, exit.reason], [0, "eof"]);
  });
});

describe("envelope validation", () => {
  async function host(): Promise<ScriptedHost> {
    return started(new Extension().tool({ name: "t", description: "" }, () => "t"), { contributes: { tools: ["t"] } });
  }

  it("answers invalid requests -32600 and keeps serving", async () => {
    const h = await host();
    h.sendRaw('{"jsonrpc":"1.0","id":5,"method":"tool/call","params":{}}\n');
    h.sendRaw('{"jsonrpc":"2.0","id":6,"method":"tool/call","params":[1]}\n');
    h.sendRaw('{"jsonrpc":"2.0","id":7,"method":"tool/call","params":{},"extra":1}\n');
    h.sendRaw('{"jsonrpc":"2.0","id":-1,"method":"tool/call","params":{}}\n');
    h.sendRaw('{"jsonrpc":"2.0","id":8}\n');
    h.notify("unknown/notification", {});
    const ok = await h.callTool("t");
    assert.equal(ok.error, undefined);
    const errors = h.sent().filter((f) => f["error"] !== undefined).map((f) => [f["id"], (f["error"] as JsonObject)["code"]]);
    assert.deepEqual(errors, [[5, -32600], [6, -32600], [7, -32600], [8, -32600]], "an unreadable id (-1) is logged, not answered");
    assert.ok(h.stderr.some((l) => l.includes("refused an invalid frame") && l.includes('\\"id\\":-1')));
    assert.match(JSON.stringify(h.sent().find((f) => f["id"] === 7)), /unknown envelope field 'extra'/);
  });

  it("a batch is refused and closes the connection", async () => {
    const h = await host();
    h.sendRaw('[{"jsonrpc":"2.0","id":9,"method":"tool/call"}]\n');
    const exit = await h.exited;
    assert.deepEqual([exit.code, exit.reason], [1, "fault"]);
    assert.ok(h.stderr.some((l) => l.includes("batches are not supported")));
  });

  it("a response to an id never issued closes the connection, as in Go and Python", async () => {
    for (const id of ['"ts:999"', "999", '"py:1"', "[1]"]) {
      const h = await host();
      h.sendRaw(`{"jsonrpc":"2.0","id":${id},"result":{}}\n`);
      const exit = await h.exited;
      assert.deepEqual([exit.code, exit.reason], [1, "fault"], id);
      assert.ok(h.stderr.some((l) => l.includes("which this side never issued")), id);
    }
  });

  it("invalid UTF-8 and EOF inside a frame are protocol errors", async () => {
    const h = await host();
    h.sendRaw(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]).toString("latin1"));
    const exit = await h.exited;
    assert.equal(exit.code, 1);
  });
});

describe("JSON that breaks a wire rule", () => {
  // Answered exactly as the Go and Python SDKs answer it (conformance check rpc.strict_json).
  async function host(): Promise<ScriptedHost> {
    const ext = new Extension().tool(
      { name: "typed", description: "", parameters: { type: "object", properties: { count: { type: "integer" }, label: { type: "string" } } } as const },
      (a) => `${String(a.label)}:${String(a.count)}`,
    );
    return started(ext, { contributes: { tools: ["typed"] } });
  }
  const request = (id: number, params: string): string => `{"jsonrpc":"2.0","id":${id},"method":"tool/call","params":${params}}\n`;

  it("takes an integral 7.0 as an integer (draft 2020-12) and hands the handler the number 7", async () => {
    const h = await host();
    for (const [i, count] of ["7.0", "7e0", "70E-1"].entries()) {
      h.sendRaw(request(300 + i, `{"name":"typed","arguments":{"count":${count},"label":"x"}}`));
      const answer = await h.waitFor((f) => f["id"] === 300 + i);
      assert.equal(answer["error"], undefined, count);
      assert.equal(JSON.stringify(answer["result"]), JSON.stringify({ content: [{ type: "text", text: "x:7" }] }), count);
    }
    h.sendRaw(request(310, '{"name":"typed","arguments":{"count":7.5}}'));
    const refused = (await h.waitFor((f) => f["id"] === 310))["error"] as JsonObject;
    assert.equal(refused["message"], "invalid arguments: /count: want type integer, got number");
  });

  it("answers -32602 inside params, -32600 in the envelope, and keeps serving", async () => {
    const h = await host();
    const cases: [string, number, RegExp][] = [
      ['{"name":"typed","arguments":{"count":1,"count":2}}', -32602, /duplicate key "count"/],
      ['{"name":"typed","name":"typed","arguments":{}}', -32602, /duplicate key "name"/],
      ['{"name":"typed","arguments":{"label":"\\ud800"}}', -32602, /lone UTF-16 surrogate/],
      ['{"name":"typed","arguments":{"count":[1.5,{"a":2.0}]}}', -32602, /^invalid arguments: \/count: want type integer, got array$/],
      // The frame's 129th level (envelope, params, arguments, then 126 arrays) is past
      // MAX_JSON_DEPTH, at the same byte Go and Python name; 200,000 levels alike.
      ['{"name":"typed","arguments":{"v":' + "[".repeat(126) + "]".repeat(126) + "}}", -32602, /^invalid params: nesting deeper than 128 levels \(MAX_JSON_DEPTH\) at byte 214$/],
      ['{"name":"typed","arguments":{"v":' + "[".repeat(200_000) + "]".repeat(200_000) + "}}", -32602, /^invalid params: nesting deeper than 128 levels \(MAX_JSON_DEPTH\) at byte 214$/],
    ];
    for (const [i, [params, code, reason]] of cases.entries()) {
      h.sendRaw(request(100 + i, params));
      const answer = await h.waitFor((f) => f["id"] === 100 + i);
      const error = answer["error"] as JsonObject;
      assert.equal(error["code"], code, params);
      assert.match(String(error["message"]), reason, params);
    }
    h.sendRaw('{"jsonrpc":"2.0","id":200,"method":"tool/call","method":"tool/call","params":{"name":"typed","arguments":{}}}\n');
    assert.equal(((await h.waitFor((f) => f["id"] === 200))["error"] as JsonObject)["code"], -32600);
    h.sendRaw('{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1,"id":2}}\n');
    const ok = await h.callTool("typed", { count: 3, label: "ok" });
    assert.equal(ok.error, undefined);
    assert.ok(h.stderr.some((l) => l.includes("dropped a malformed notification")));
  });

  it("keeps numbers written with a fraction where numbers are wanted, and escaped pairs", async () => {
    const ext = new Extension().tool(
      { name: "num", description: "", parameters: { type: "object", properties: { x: { type: "number" }, s: { type: "string" } } } as const },
      (a) => `${String(a.x)}|${String(a.s)}`,
    );
    const h = await started(ext, { contributes: { tools: ["num"] } });
    h.sendRaw(request(300, '{"name":"num","arguments":{"x":2.0,"s":"\\ud83d\\ude00 a.b 1e5"}}'));
    const answer = await h.waitFor((f) => f["id"] === 300);
    assert.deepEqual((answer["result"] as JsonObject)["content"], [{ type: "text", text: "2|\u{1F600} a.b 1e5" }]);
  });
});

describe("dynamic catalog transactions", () => {
  const contributes = { tools: [] };
  it("a wrong acknowledged revision is a protocol error and commits nothing", async () => {
    const ext = new Extension();
    const host = await started(ext, { contributes, script: { respond: (m) => (m === "tools/register" ? { result: { revision: 5, tools: ["x"] } } : undefined) } });
    await assert.rejects(ext.catalog.register([{ name: "x", description: "", handler: () => "x" }]), (e) => e instanceof ProtocolError && /expected exactly 1/.test(e.message));
    assert.equal(ext.catalog.revision(), 0);
    assert.equal((await host.callTool("x")).error?.code, -32602);
  });

  it("a host rejection leaves the catalog unchanged; the next mutation still gets revision 1", async () => {
    const ext = new Extension();
    let refuse = true;
    await started(ext, {
      contributes,
      script: { respond: (m) => (m === "tools/register" && refuse ? { error: { code: -32602, message: "name collides" } } : undefined) },
    });
    await assert.rejects(ext.catalog.register([{ name: "x", description: "", handler: () => "x" }]), (e) => e instanceof RemoteError && e.code === -32602);
    refuse = false;
    const update = await ext.catalog.register([{ name: "x", description: "", handler: () => "x" }]);
    assert.deepEqual(update, { revision: 1, tools: ["x"] });
  });

  it("needs dynamic_tools; 257 tools in one request are refused locally", async () => {
    const ext = new Extension();
    await started(ext, { contributes, optionalFeatures: [] });
    await assert.rejects(ext.catalog.register([{ name: "x", description: "", handler: () => "x" }]), /dynamic_tools/);
    const ext2 = new Extension();
    await started(ext2, { contributes });
    const many = Array.from({ length: 257 }, (_, i) => ({ name: `t${i}`, description: "", handler: () => "x" }));
    await assert.rejects(ext2.catalog.register(many), ValidationError);
    await assert.rejects(ext2.catalog.unregister([]), (e) => e instanceof ValidationError && e.path === "/names");
  });

  it("a dynamic tool's schema is compiled before anything is sent: a bad one is refused locally", async () => {
    const ext = new Extension();
    let sent = 0;
    await started(ext, { contributes, script: { respond: (m) => (m === "tools/register" ? (sent++, { result: { revision: 1, tools: ["dyn"] } }) : undefined) } });
    await assert.rejects(
      ext.catalog.register([{ name: "dyn", description: "", parameters: { $ref: "#/$defs/missing" }, handler: () => "x" }]),
      (e) => e instanceof ValidationError && /^tool "dyn": parameters schema \/\$ref: cannot resolve/.test(e.message),
    );
    assert.equal(sent, 0);
    assert.equal(ext.catalog.revision(), 0);
  });
});

describe("atomic catalog replacement", () => {
  const contributes = { tools: [] };
  it("catalog.replace is one revision holding exactly the new list", async () => {
    const ext = new Extension();
    const host = await started(ext, { contributes });
    await ext.catalog.register([
      { name: "a", description: "", handler: () => "a" },
      { name: "b", description: "", handler: () => "b" },
    ]);
    const update = await ext.catalog.replace([
      { name: "b", description: "", handler: () => "b2" },
      { name: "c", description: "", handler: () => "c" },
    ]);
    assert.equal(update.revision, 2);
    assert.deepEqual([...update.tools].sort(), ["b", "c"]);
    assert.equal(ext.catalog.revision(), 2);
    assert.equal((await host.callTool("a")).error?.code, -32602);
    assert.deepEqual(((await host.callTool("b")).result as JsonObject)["content"], [{ type: "text", text: "b2" }]);
    await assert.rejects(ext.catalog.replace([{ name: "d", description: "", handler: () => "d" }, { name: "d", description: "", handler: () => "d" }]), /appears twice/);
    const many = Array.from({ length: 257 }, (_, i) => ({ name: `t${i}`, description: "", handler: () => "x" }));
    await assert.rejects(ext.catalog.replace(many), ValidationError);
    assert.equal(ext.catalog.revision(), 2);
    assert.deepEqual((await ext.catalog.replace([])).tools, []);
  });

  it("a host refusal changes nothing", async () => {
    const ext = new Extension();
    const host = await started(ext, {
      contributes,
      script: { respond: (m) => (m === "tools/replace" ? { error: { code: -32602, message: "catalog revision 1 refused: tool c is provided by another" } } : undefined) },
    });
    await assert.rejects(ext.catalog.replace([{ name: "c", description: "", handler: () => "c" }]), (e) => e instanceof RemoteError && e.code === -32602 && /refused/.test(e.message));
    assert.equal(ext.catalog.revision(), 0);
    assert.equal((await host.callTool("c")).error?.code, -32602);
  });
});
