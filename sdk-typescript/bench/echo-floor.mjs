// The floor: the least a Node process can do to answer a tool call over JSON lines.
// Reads lines from stdin, answers every request with the fixture echo's result shape.
import { writeSync } from "node:fs";

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const msg = JSON.parse(buffered.slice(0, nl));
    buffered = buffered.slice(nl + 1);
    if (msg.id === undefined) continue;
    const result = msg.method === "tool/call"
      ? { content: [{ type: "text", text: "echo" }], structured_content: { value: msg.params.arguments.value } }
      : {};
    writeSync(1, JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }) + "\n");
  }
});
process.stdin.on("end", () => process.exit(0));
