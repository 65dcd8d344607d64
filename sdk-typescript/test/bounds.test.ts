// Bounded memory for hostile frames, measured rather than timed: the frame decoder runs in a
// child Node whose V8 heap is capped, as the Go host's and Python SDK's bound tests cap
// theirs (schema MAX_JSON_DEPTH).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";

const wireparse = new URL("../src/wireparse.js", import.meta.url).href;

describe("a frame nested past MAX_JSON_DEPTH", () => {
  it("is refused naming the byte, within a 16 MiB heap, 500,000 levels deep", () => {
    const child = `
      const { parseFrame, WireRuleError } = await import(${JSON.stringify(wireparse)});
      const n = 500000;
      const frame = '{"jsonrpc":"2.0","id":1,"method":"tool/call","params":{"name":"echo","arguments":{"value":' + "[".repeat(n) + "]".repeat(n) + "}}}";
      try {
        parseFrame(frame);
        console.log("accepted");
      } catch (err) {
        console.log(JSON.stringify({ rule: err instanceof WireRuleError, message: err.message, id: err.value?.id, method: err.value?.method }));
      }`;
    const out = execFileSync(process.execPath, ["--max-old-space-size=16", "--input-type=module", "-e", child], { encoding: "utf8" });
    assert.deepEqual(JSON.parse(out), {
      rule: true,
      message: "nesting deeper than 128 levels (MAX_JSON_DEPTH) at byte 215",
      id: 1,
      method: "tool/call",
    });
  });
});

