// Behaviour only a real process shows: the protected stdout, crashes, exit codes, framing
// faults that close the connection, and EOF handling.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JsonObject } from "../src/index.js";
import { startFixture } from "./helpers.js";

describe("fixture as a child process", () => {
  it("console.log and an inheriting child process never reach the protocol stream", async () => {
    const host = await startFixture("process");
    await host.initialize();
    const r = await host.callTool("print_stdout", { text: "stray-line" });
    assert.deepEqual(r.result, { content: [{ type: "text", text: "printed" }] });
    const after = await host.callTool("echo", { value: "still framed" });
    assert.equal(after.error, undefined);
    host.end();
    const exit = await host.exited;
    assert.equal(exit.code, 0, "stdin EOF exits 0");
    assert.deepEqual(host.frames.filter((f) => typeof f.frame === "string"), [], "every stdout line is a JSON frame");
    assert.ok(host.stderr.includes("stray-line"), "console.log went to stderr");
    assert.ok(host.stderr.includes("child-output"), "the child's stdout went to stderr");
  });

  it("over a socketpair stdout (no /proc reopen) only JavaScript writers are diverted, as documented", async () => {
    const host = await startFixture("process", { stdout: "socket" });
    await host.initialize();
    await host.callTool("print_stdout", { text: "stray-line" });
    host.end();
    await host.exited;
    const raw = host.frames.filter((f) => typeof f.frame === "string").map((f) => f.frame);
    assert.deepEqual(raw, ["child-output"], "console.log is diverted; an inheriting child still reaches fd 1");
    assert.ok(host.stderr.some((l) => l.includes("stdout is only partly protected")));
    assert.ok(host.stderr.includes("stray-line"));
  });

  it("crash mid-call exits with the code and never answers", async () => {
    const host = await startFixture("process");
    await host.initialize();
    void host.callTool("crash", { code: 7 });
    const exit = await host.exited;
    assert.equal(exit.code, 7);
    assert.equal(host.sent().filter((f) => f["id"] === 2).length, 0);
  });

  it("malformed JSON closes the connection with a logged reason and excerpt; exit 1", async () => {
    const host = await startFixture("process");
    await host.initialize();
    host.sendRaw('{"jsonrpc":"2.0", oops\n');
    const exit = await host.exited;
    assert.equal(exit.code, 1);
    const line = host.stderr.find((l) => l.includes("protocol error"))!;
    const log = JSON.parse(line) as JsonObject;
    assert.equal(log["code"], -32700);
    assert.match(String(log["reason"]), /invalid JSON/);
    assert.match(String(log["excerpt"]), /oops/);
    assert.equal(host.sent().length, 1, "nothing but the initialize answer was written");
  });

  // wire.md §1 framing faults, the same verdict as Go and Python: exit 1, nothing served.
  for (const [name, raw] of [
    ["a byte order mark", '\ufeff{"jsonrpc":"2.0","id":5,"method":"x"}\n'],
    ["a blank line", '\n{"jsonrpc":"2.0","id":5,"method":"x"}\n'],
    ["a blank CRLF line", '\r\n{"jsonrpc":"2.0","id":5,"method":"x"}\n'],
  ] as const) {
    it(`${name} is a framing fault: exit 1, the request after it never answered`, async () => {
      const host = await startFixture("process");
      await host.initialize();
      host.sendRaw(raw);
      const exit = await host.exited;
      assert.equal(exit.code, 1);
      assert.equal(host.sent().filter((f) => f["id"] === 5).length, 0);
    });
  }

  it("EOF inside a frame is a framing fault: a whole request without its newline is never served", async () => {
    const host = await startFixture("process");
    await host.initialize();
    host.sendRaw('{"jsonrpc":"2.0","id":6,"method":"tool/call","params":{"name":"echo","arguments":{"value":1}}}');
    host.end();
    const exit = await host.exited;
    assert.equal(exit.code, 1);
    assert.equal(host.sent().filter((f) => f["id"] === 6).length, 0);
    assert.ok(host.stderr.some((l) => /stream ended inside a frame/.test(l)));
  });

  it("CRLF line ends are served", async () => {
    const host = await startFixture("process");
    await host.initialize();
    host.sendRaw('{"jsonrpc":"2.0","id":7,"method":"tool/call","params":{"name":"echo","arguments":{"value":"crlf"}}}\r\n');
    const answer = await host.waitFor((f) => f["id"] === 7);
    assert.deepEqual((answer["result"] as JsonObject)["structured_content"], { value: "crlf" });
    host.end();
    assert.equal((await host.exited).code, 0);
  });

  it("an oversized line closes the connection naming the limit", async () => {
    const host = await startFixture("process");
    await host.initialize();
    host.sendRaw("x".repeat(1048577 + 10) + "\n");
    const exit = await host.exited;
    assert.equal(exit.code, 1);
    assert.ok(host.stderr.some((l) => /exceeds the limit of 1048576 bytes/.test(l)));
  });

  it("EOF during a call drains it (the answer is still written), then exits 0", async () => {
    const host = await startFixture("process");
    await host.initialize();
    const pending = host.callTool("slow", { ms: 150 });
    await host.waitFor(() => true); // the init answer is in; now close stdin under the running call
    host.end();
    const r = await pending;
    assert.deepEqual(r.result, { content: [{ type: "text", text: "slept" }] });
    assert.equal((await host.exited).code, 0);
  });

  it("refuses API 0.3 with -32006 and the supported list", async () => {
    const host = await startFixture("process", { apiVersion: "0.3" });
    const r = await host.initialize({ api_version: "0.3" });
    assert.equal(r.error?.code, -32006);
    assert.deepEqual(r.error?.data, { requested: "0.3", supported: ["0.4"] });
    host.end();
    assert.equal((await host.exited).code, 0);
  });
});
