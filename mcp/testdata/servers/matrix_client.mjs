// The TypeScript MCP SDK client (npm, pinned in package-lock.json) as a
// compatibility-matrix driver: node matrix_client.mjs PLAN_JSON (stdio COMMAND ARGS... |
// http URL TOKEN) lists the tools, makes the plan's calls and prints one JSON object with
// what it saw. The SDK checks structuredContent against the tool's outputSchema itself.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [plan, mode, ...rest] = process.argv.slice(2);
const transport =
  mode === "http"
    ? new StreamableHTTPClientTransport(new URL(rest[0]), { requestInit: { headers: { Authorization: `Bearer ${rest[1]}` } } })
    : new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
const client = new Client({ name: "octet-matrix-ts", version: "1" }, { capabilities: { elicitation: { form: {} } } });
let elicited = 0;
client.setRequestHandler(ElicitRequestSchema, async () => {
  elicited++;
  return { action: "accept", content: { value: "Grace" } };
});
await client.connect(transport);
const out = { protocol: transport.protocolVersion ?? null, tools: [], calls: [] };
const listed = await client.listTools();
out.tools = listed.tools.map((t) => ({ name: t.name, output_schema: t.outputSchema !== undefined }));
for (const c of JSON.parse(plan)) {
  const rec = { tool: c.tool, progress: 0, cancelled: 0 };
  const before = elicited;
  // A step marked cancel is aborted at its first progress notification.
  const abort = new AbortController();
  const onprogress = () => {
    rec.progress++;
    if (c.cancel) abort.abort();
  };
  try {
    const opts = { signal: abort.signal, ...(c.progress ? { onprogress } : {}) };
    const r = await client.callTool({ name: c.tool, arguments: c.args }, undefined, opts);
    rec.is_error = Boolean(r.isError);
    rec.text = r.content.map((p) => p.text ?? "").join("\n");
    rec.structured = r.structuredContent ?? null;
  } catch (e) {
    if (c.cancel && abort.signal.aborted) rec.cancelled = 1;
    else rec.error = { code: e.code ?? null, message: String(e.message ?? e) };
  }
  rec.elicited = elicited - before;
  out.calls.push(rec);
}
await client.close();
console.log(JSON.stringify(out));
