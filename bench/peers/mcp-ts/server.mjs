// The benchmark's MCP peer for TypeScript/Node: an echo tool (text "echo" plus
// structured {value}, like the octet fixture's echo) and a crash tool over stdio,
// written in the MCP TypeScript SDK's ordinary style (McpServer + registerTool + zod).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "bench-mcp-ts", version: "0.1.0" });

server.registerTool(
  "echo",
  { description: "echo the value", inputSchema: { value: z.string() }, outputSchema: { value: z.string() } },
  async ({ value }) => ({ content: [{ type: "text", text: "echo" }], structuredContent: { value } }),
);

server.registerTool(
  "crash",
  { description: "exit at once without answering", inputSchema: { code: z.number().int().optional() } },
  async ({ code }) => process.exit(code ?? 3),
);

await server.connect(new StdioServerTransport());
