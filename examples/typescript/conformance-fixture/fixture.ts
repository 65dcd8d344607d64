// The conformance fixture (docs/design/fixture.md), built with the public SDK API only.
// Kept apart from extension.ts so the SDK's tests can also serve it in-process.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Extension, ToolError, textContent, toolResult, type JsonObject, type JsonValue, type KvPrecondition, type KvWrite } from "octet-extension-sdk";

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Deterministic artifact bytes: byte i is i % 251. */
function fixtureBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = i % 251;
  return out;
}

export function buildFixture(): Extension {
  const ext = new Extension({ apiVersion: "0.4" });
  let stuckShutdown = false;

  ext.tool(
    { name: "echo", description: "Echo a value back as structured content", parameters: { type: "object", properties: { value: {} }, required: ["value"] } },
    (args) => toolResult(textContent("echo"), { structuredContent: { value: args.value } }),
  );

  ext.tool(
    {
      name: "fail_with",
      description: "Answer with exactly this JSON-RPC error",
      parameters: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" }, data: {} }, required: ["code", "message"] },
    },
    (args) => {
      throw new ToolError(args.code, args.message, args.data);
    },
  );

  ext.tool(
    { name: "slow", description: "Wait up to ms while watching cancellation", parameters: { type: "object", properties: { ms: { type: "integer", minimum: 0 } }, required: ["ms"] } },
    async (args, ctx) => {
      await ctx.sleep(args.ms);
      return "slept";
    },
  );

  ext.tool(
    { name: "progress_n", description: "Emit n status progress events", parameters: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] } },
    (args, ctx) => {
      for (let i = 1; i <= args.n; i++) ctx.progress({ message: `step ${i}`, current: i, total: args.n });
      return "done";
    },
  );

  ext.tool(
    { name: "print_stdout", description: "Write to stdout the ordinary way, and from a child process", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
    async (args) => {
      console.log(args.text);
      await new Promise<void>((resolve, reject) => {
        const child = spawn("sh", ["-c", "echo child-output"], { stdio: ["ignore", "inherit", "inherit"] });
        child.on("error", reject);
        child.on("close", () => resolve());
      });
      return "printed";
    },
  );

  ext.tool(
    { name: "crash", description: "Exit at once without answering", parameters: { type: "object", properties: { code: { type: "integer" } } } },
    (args) => process.exit(args.code ?? 3),
  );

  ext.tool(
    {
      name: "callback_n",
      description: "Make n sequential kv.get calls while serving",
      parameters: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] },
    },
    async (args) => {
      for (let i = 0; i < args.n; i++) await ext.kv.get("conformance-fixture", "callback");
      return toolResult("called back", { structuredContent: { calls: args.n } });
    },
  );

  ext.tool(
    { name: "big_result", description: "Return a text part of the given size", parameters: { type: "object", properties: { bytes: { type: "integer", minimum: 0 } }, required: ["bytes"] } },
    (args) => "x".repeat(args.bytes),
  );

  ext.tool(
    {
      name: "publish",
      description: "Publish deterministic bytes inline or by scratch path",
      parameters: {
        type: "object",
        properties: {
          bytes: { type: "integer", minimum: 0 },
          mode: { enum: ["inline", "path"] },
          corrupt: { enum: ["size", "sha256"] },
          mime_type: { type: "string" },
        },
        required: ["bytes", "mode"],
      },
    },
    async (args) => {
      const data = fixtureBytes(args.bytes);
      const mimeType = args.mime_type ?? "application/octet-stream";
      let ref;
      if (args.mode === "inline") {
        ref = await ext.publishArtifact({ mimeType, data });
      } else {
        const scratch = process.env["OCTET_EXTENSION_SCRATCH"];
        if (scratch === undefined) throw new Error("OCTET_EXTENSION_SCRATCH is not set");
        writeFileSync(join(scratch, "fixture.bin"), data);
        const size = args.corrupt === "size" ? data.length + 1 : data.length;
        const digest = args.corrupt === "sha256" ? sha256("not the bytes") : sha256(data);
        ref = await ext.publishArtifact({ mimeType, path: "fixture.bin", size, sha256: digest });
      }
      return toolResult("published", { structuredContent: { artifact_id: ref.artifact_id, size: ref.size, sha256: ref.sha256 } });
    },
  );

  ext.tool(
    {
      name: "register_dynamic",
      description: "Register a dynamic tool returning fixed text",
      parameters: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"] },
    },
    async (args) => {
      const update = await ext.registerTool({ name: args.name, description: `dynamic tool ${args.name}`, handler: () => args.text });
      return toolResult("registered", { structuredContent: { revision: update.revision } });
    },
  );

  ext.tool(
    {
      name: "unregister_dynamic",
      description: "Unregister a dynamic tool",
      parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    async (args) => {
      const update = await ext.unregisterTool(args.name);
      return toolResult("unregistered", { structuredContent: { revision: update.revision } });
    },
  );

  ext.tool(
    {
      name: "ask",
      description: "Ask the user to confirm or for input",
      parameters: {
        type: "object",
        properties: { kind: { enum: ["confirm", "input"] }, prompt: { type: "string" }, secret: { type: "boolean" } },
        required: ["kind", "prompt"],
      },
    },
    async (args, ctx) => {
      if (args.kind === "confirm") {
        return toolResult("asked", { structuredContent: { answer: await ext.confirm(args.prompt, { parent: ctx }) } });
      }
      const secret = args.secret ?? false;
      const answer = await ext.requestInput(args.prompt, { secret, parent: ctx });
      const structured: JsonObject = secret ? { answer_sha256: answer === null ? null : sha256(answer) } : { answer };
      return toolResult("asked", { structuredContent: structured });
    },
  );

  ext.tool(
    {
      name: "secret",
      description: "Read a brokered secret and return only its digest",
      parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    async (args) => toolResult("read", { structuredContent: { sha256: sha256(await ext.getSecret(args.name)) } }),
  );

  ext.tool(
    {
      name: "present",
      description: "Publish a presentation snapshot",
      parameters: { type: "object", properties: { revision: { type: "integer" }, activities: { type: "integer", minimum: 0 } }, required: ["revision", "activities"] },
    },
    (args) => {
      const activities = Array.from({ length: args.activities }, (_, i) => ({ id: `a${i}`, label: `activity ${i}`, state: "running" as const }));
      ext.publishPresentation({ revision: args.revision, activities, actions: [] });
      return "presented";
    },
  );

  ext.tool(
    {
      name: "spawn_child",
      description: "Spawn a child session and wait briefly",
      parameters: {
        type: "object",
        properties: { task_name: { type: "string" }, message: { type: "string" }, key: { type: "string" } },
        required: ["task_name", "message", "key"],
      },
    },
    async (args) => {
      const child = await ext.spawnAgent({
        taskName: args.task_name,
        message: args.message,
        idempotencyKey: args.key,
        tools: ["read"],
        maxDepth: 1,
        maxConcurrentChildren: 1,
        maxTurns: 1,
        maxTokens: null,
        maxCostMicrodollars: 0,
        maxOutputBytes: 4096,
        timeoutMs: 10000,
      });
      const waited = await ext.waitAgents({ timeoutMs: 1000 });
      return toolResult("spawned", { structuredContent: { agent_id: child.agent_id, timed_out: waited.timed_out } });
    },
  );

  ext.tool(
    {
      name: "kv_commit",
      description: "Pass a batch through to kv.commit",
      parameters: { type: "object", properties: { preconditions: { type: "array" }, writes: { type: "array" } }, required: ["writes"] },
    },
    async (args) => {
      const result = await ext.kv.commit({
        preconditions: (args.preconditions ?? []) as unknown as KvPrecondition[],
        writes: args.writes as unknown as KvWrite[],
      });
      return toolResult("committed", { structuredContent: result as unknown as JsonObject });
    },
  );

  ext.tool(
    {
      name: "kv_get",
      description: "Pass through to kv.get",
      parameters: { type: "object", properties: { namespace: { type: "string" }, key: { type: "string" } }, required: ["namespace", "key"] },
    },
    async (args) => toolResult("read", { structuredContent: (await ext.kv.get(args.namespace, args.key)) as unknown as JsonObject }),
  );

  ext.tool({ name: "arm_stuck_shutdown", description: "Make the shutdown handler block forever" }, () => {
    stuckShutdown = true;
    return "armed";
  });

  ext.tool(
    {
      name: "typed",
      description: "Typed arguments and output schema",
      parameters: {
        type: "object",
        properties: { count: { type: "integer" }, label: { type: "string" } },
        required: ["count", "label"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
    },
    (args) => toolResult(`${args.label}:${args.count}`, { structuredContent: { count: args.count } }),
  );

  ext.command({ name: "fixture_cmd", description: "Join the arguments" }, (args) => ({ text: args.join(" ") }));
  ext.hook("before_prompt", () => ({ disposition: { action: "continue" } }));
  ext.hook("after_tool_call", () => ({}));
  ext.context(() => [{ label: "fixture", content: "fixture context", placement: "system_suffix" }]);
  ext.status("status", () => ({ surface: "status", text: "fixture ready", priority: 0 }));
  ext.renderer("echo", () => ({ segments: [{ text: "echo", style_role: null }] }));
  ext.onLifecycle("turn_settled", (event) => {
    ext.log.info("turn settled", { turn_id: event.turn_id, outcome: event.outcome });
  });
  ext.onShutdown(async () => {
    // Armed: never finishes, so the SDK's bound on shutdown handlers is what ends the process.
    if (stuckShutdown) await new Promise<JsonValue>(() => undefined);
  });
  return ext;
}
