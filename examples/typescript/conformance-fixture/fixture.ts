// The conformance fixture (docs/design/fixture.md), built with the public SDK API only.
// Kept apart from extension.ts so the SDK's tests can also serve it in-process.
import { unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { registerProbe } from "./probe.js";
import { Extension, FeatureName, SettingsRefused, ToolError, textContent, toolResult, type DynamicTool, type JsonObject, type JsonSchema, type JsonValue, type KVPrecondition, type KVWrite, type RequestContext } from "octet-extension-sdk";

// node:crypto and node:child_process load inside the tools that use them, as the Python
// fixture imports hashlib and subprocess: together they cost about 8 ms of every start, and
// the fixture is what the cold-start and scale benchmarks measure.
const sha256 = async (data: string | Uint8Array): Promise<string> =>
  (await import("node:crypto")).createHash("sha256").update(data).digest("hex");

/** Deterministic artifact bytes: byte i is i % 251. */
function fixtureBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = i % 251;
  return out;
}

/** Wait when a prompt (or rendered echo value) is "slow:<ms>", watching cancellation; fail uncaught when it is "fail:<message>" (fixture.md). */
async function slowPrompt(prompt: unknown, ctx: RequestContext): Promise<void> {
  if (typeof prompt === "string" && prompt.startsWith("fail:")) throw new Error(prompt.slice("fail:".length));
  if (typeof prompt === "string" && prompt.startsWith("slow:")) await ctx.sleep(Number(prompt.slice("slow:".length)));
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
    { name: "ignore_cancel", description: "Report progress once, then block ms ignoring cancellation", parameters: { type: "object", properties: { ms: { type: "integer", minimum: 0 } }, required: ["ms"] } },
    (args, ctx) => {
      if (ext.negotiatedFeatures.has(FeatureName.REQUEST_PROGRESS)) ctx.progress({ message: "ignoring cancellation", current: 1, total: 1 });
      // Block the thread itself, so not even $/cancelRequest is read: a non-cooperative extension.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, args.ms);
      return "ignored";
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
      const { spawn } = await import("node:child_process");
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
      description: "Make n sequential KV reads while serving",
      parameters: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] },
    },
    async (args) => {
      for (let i = 0; i < args.n; i++) await ext.kv.get("callback");
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
        ref = await ext.artifacts.publish({ mimeType, data });
      } else {
        const scratch = process.env["OCTET_EXTENSION_SCRATCH"];
        if (scratch === undefined) throw new Error("OCTET_EXTENSION_SCRATCH is not set");
        writeFileSync(join(scratch, "fixture.bin"), data);
        const size = args.corrupt === "size" ? data.length + 1 : data.length;
        const digest = await sha256(args.corrupt === "sha256" ? "not the bytes" : data);
        try {
          ref = await ext.artifacts.publish({ mimeType, path: "fixture.bin", size, sha256: digest });
        } finally {
          // The host has its own copy once it answered: removing the file drops its
          // dirty pages, so a publish writes its bytes to disk once, not twice.
          unlinkSync(join(scratch, "fixture.bin"));
        }
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
      const update = await ext.catalog.register([{ name: args.name, description: `dynamic tool ${args.name}`, handler: () => args.text }]);
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
      const update = await ext.catalog.unregister([args.name]);
      return toolResult("unregistered", { structuredContent: { revision: update.revision } });
    },
  );

  // replace_dynamic's catalog is the tools it is given and itself: a replacement is the
  // whole catalog, and the fixture must stay able to replace it again.
  const replaceParameters = {
    type: "object",
    properties: {
      tools: {
        type: "array",
        items: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"] },
      },
    },
    required: ["tools"],
  } as const;
  const replaceDynamic = async (args: JsonObject) => {
    const given = args.tools as unknown as { name: string; text: string }[];
    const tools: DynamicTool[] = [
      { name: "replace_dynamic", description: "Replace the whole dynamic catalog in one change", parameters: replaceParameters, handler: replaceDynamic },
      ...given.map((t) => ({ name: t.name, description: `dynamic tool ${t.name}`, handler: () => t.text })),
    ];
    const update = await ext.catalog.replace(tools);
    return toolResult("replaced", { structuredContent: { revision: update.revision } });
  };
  ext.tool({ name: "replace_dynamic", description: "Replace the whole dynamic catalog in one change", parameters: replaceParameters }, replaceDynamic);

  ext.tool(
    {
      name: "ask",
      description: "Ask the user to confirm or for input",
      parameters: {
        type: "object",
        properties: {
          kind: { enum: ["confirm", "input"] },
          prompt: { type: "string" },
          secret: { type: "boolean" },
          options: {
            type: "array",
            items: {
              type: "object",
              properties: { value: { type: "string" }, label: { type: "string" }, description: { type: "string" } },
              required: ["value", "label"],
              additionalProperties: false,
            },
          },
          allow_free_text: { type: "boolean" },
        },
        required: ["kind", "prompt"],
      },
    },
    async (args, ctx) => {
      if (args.kind === "confirm") {
        return toolResult("asked", { structuredContent: { answer: (await ext.ui.confirm(args.prompt, { parent: ctx })).confirmed } });
      }
      const secret = args.secret ?? false;
      const answer = (await ext.ui.requestInput(args.prompt, {
        secret,
        parent: ctx,
        ...(args.options !== undefined ? { options: args.options } : {}),
        ...(args.allow_free_text === true ? { allowFreeText: true } : {}),
      })).value;
      const structured: JsonObject = secret ? { answer_sha256: answer === null ? null : await sha256(answer) } : { answer };
      return toolResult("asked", { structuredContent: structured });
    },
  );

  ext.tool(
    {
      name: "secret",
      description: "Read a brokered secret and return only its digest",
      parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    async (args) => toolResult("read", { structuredContent: { sha256: await sha256((await ext.secrets.get(args.name)).value) } }),
  );

  ext.tool(
    {
      name: "present",
      description: "Publish a presentation snapshot",
      parameters: { type: "object", properties: { revision: { type: "integer" }, activities: { type: "integer", minimum: 0 } }, required: ["revision", "activities"] },
    },
    (args) => {
      const activities = Array.from({ length: args.activities }, (_, i) => ({ id: `a${i}`, label: `activity ${i}`, state: "running" as const }));
      ext.presentation.update({ revision: args.revision, activities, actions: [] });
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
      const policy = { tools: ["read" as const], max_depth: 1 as const, max_concurrent_children: 1, max_turns: 1, max_tokens: null, max_cost_microdollars: 0, max_output_bytes: 4096, timeout_ms: 10000 };
      const child = await ext.agents.spawn(args.task_name, args.message, { idempotencyKey: args.key, policy });
      const waited = await ext.agents.wait({ timeoutMs: 1000 });
      return toolResult("spawned", { structuredContent: { agent_id: child.agent_id, timed_out: waited.timed_out } });
    },
  );

  ext.tool(
    {
      name: "kv_commit",
      description: "Pass a batch through to the KV commit",
      parameters: { type: "object", properties: { preconditions: { type: "array" }, writes: { type: "array" } }, required: ["writes"] },
    },
    async (args) => {
      const result = await ext.kv.commit(args.writes as unknown as KVWrite[], { preconditions: (args.preconditions ?? []) as unknown as KVPrecondition[] });
      return toolResult("committed", { structuredContent: result as unknown as JsonObject });
    },
  );

  ext.tool(
    {
      name: "kv_get",
      description: "Pass through to the KV read",
      parameters: { type: "object", properties: { namespace: { type: "string" }, key: { type: "string" } }, required: ["namespace", "key"] },
    },
    async (args) => toolResult("read", { structuredContent: (await ext.kv.get(args.key, { namespace: args.namespace })) as unknown as JsonObject }),
  );

  // The KV migration state.kv_migration drives (only when the manifest declares
  // [state] kv_version 2): the note becomes {"migrated": <old>}; a second run would nest.
  ext.migration(1, async (tx) => {
    const note = await tx.get("migration/note");
    if (note !== undefined) tx.put("migration/note", { migrated: note });
  });

  // The settings the config.* checks deliver: a note "refuse-me" is refused; the two tools
  // show what is in force and the call's idempotency key (idempotency.key_delivered).
  interface FixtureSettings { note?: string }
  ext.onConfigure<FixtureSettings>((s) => {
    if (s.note === "refuse-me") throw new SettingsRefused('note "refuse-me" is refused');
  });
  ext.tool({ name: "settings_in_force", description: "The note in force and its revision, as note@revision" },
    () => `${ext.settings<FixtureSettings>()?.note ?? ""}@${ext.settingsRevision}`);
  ext.tool({ name: "idempotency_key_seen", description: "The call's idempotency key, as key=KEY" },
    (_args, ctx) => `key=${ctx.idempotencyKey ?? ""}`);

  ext.tool({ name: "arm_stuck_shutdown", description: "Make the shutdown handler block forever" }, () => {
    stuckShutdown = true;
    return "armed";
  });

  // suite_args declares the schema of docs/design/fixture.md: schema.suite_verdicts compares
  // the SDK validator's answers with the host's.
  ext.tool<JsonObject>(
    {
      name: "suite_args",
      description: "Accepts exactly what its schema allows",
      parameters: {
        type: "object",
        $defs: { tag: { type: "string", minLength: 1 } },
        properties: {
          tags: { type: "array", items: { $ref: "#/$defs/tag" }, uniqueItems: true },
          step: { type: "number", multipleOf: 0.5 },
          card: { type: "string" },
          billing: { type: "string" },
        },
        dependentSchemas: { card: { required: ["billing"] } },
        unevaluatedProperties: false,
      } as unknown as JsonSchema,
    },
    () => "accepted",
  );

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

  ext.tool(
    {
      name: "notify",
      description: "Show a notification",
      parameters: {
        type: "object",
        properties: { message: { type: "string" }, level: { enum: ["info", "success", "warning", "error"] }, title: { type: "string" } },
        required: ["message", "level"],
      },
    },
    (args) => {
      ext.ui.notify(args.message, args.title === undefined ? { level: args.level } : { level: args.level, title: args.title });
      return "notified";
    },
  );

  ext.tool(
    {
      name: "notify_n",
      description: "Send n info notifications of about size characters, then answer {sent: n}",
      parameters: { type: "object", properties: { n: { type: "integer", minimum: 0 }, size: { type: "integer", minimum: 0 } }, required: ["n", "size"] },
    },
    (args) => {
      for (let i = 1; i <= args.n; i++) ext.ui.notify(`note ${i}`.padEnd(args.size, "."), { level: "info" });
      return toolResult(textContent("notified"), { structuredContent: { sent: args.n } });
    },
  );

  ext.tool(
    { name: "contribute", description: "Push a context item and a status line", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
    (args) => {
      ext.ui.contributeContext([{ label: "fixture", content: args.text, placement: "prompt_prefix" }]);
      ext.ui.contributeStatus("status", args.text, { priority: 1 });
      return "contributed";
    },
  );

  ext.tool(
    {
      name: "policy",
      description: "Evaluate an intent; redeem an ask's approval token",
      parameters: { type: "object", properties: { operation: { type: "string" } }, required: ["operation"] },
    },
    async (args) => {
      const intent = { kind: "fixture", operation: args.operation };
      const first = await ext.policy.evaluate(intent);
      let redeemed: string | null = null;
      if (first.decision === "ask" && first.approval_token !== undefined) {
        redeemed = (await ext.policy.evaluate(intent, { approvalToken: first.approval_token })).decision;
      }
      return toolResult("evaluated", { structuredContent: { decision: first.decision, redeemed } });
    },
  );

  ext.tool(
    {
      name: "kv_list",
      description: "Pass through to the KV list",
      parameters: {
        type: "object",
        properties: { namespace: { type: "string" }, prefix: { type: "string" }, cursor: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 1000 } },
        required: ["namespace", "prefix"],
      },
    },
    async (args) => {
      const page = await ext.kv.list(args.prefix, { namespace: args.namespace, cursor: args.cursor, limit: args.limit });
      return toolResult("listed", { structuredContent: page as unknown as JsonObject });
    },
  );

  ext.tool(
    {
      name: "agent_op",
      description: "One agent/* call after spawn",
      parameters: {
        type: "object",
        properties: {
          op: { enum: ["message", "follow_up", "models", "list", "interrupt", "wait"] },
          target: { type: "string" },
          message: { type: "string" },
          query: { type: "string" },
          limit: { type: "integer" },
        },
        required: ["op"],
      },
    },
    async (args) => {
      let out: JsonObject;
      switch (args.op) {
        case "message":
          out = { accepted: (await ext.agents.message(args.target ?? "", args.message ?? "")).accepted };
          break;
        case "follow_up":
          out = { accepted: (await ext.agents.followUp(args.target ?? "", args.message ?? "")).accepted };
          break;
        case "models":
          out = { models: (await ext.agents.models({ query: args.query, limit: args.limit })).models as unknown as JsonValue[] };
          break;
        case "list":
          out = { agents: (await ext.agents.list()).agents as unknown as JsonValue[] };
          break;
        case "interrupt":
          out = { interrupted: (await ext.agents.interrupt(args.target ?? "")).interrupted };
          break;
        default:
          out = { timed_out: (await ext.agents.wait({ timeoutMs: 1000 })).timed_out };
      }
      return toolResult("steered", { structuredContent: out });
    },
  );

  ext.command({ name: "fixture_cmd", description: "Join the arguments" }, (args) => ({ text: args.join(" ") }));
  ext.command({ name: "slow_cmd", description: "Wait the first argument in ms" }, async (args, ctx) => {
    const arg = args[0] ?? "0";
    if (arg.startsWith("fail:")) throw new Error(arg.slice("fail:".length));
    ctx.progress({ message: "waiting" });
    await ctx.sleep(Number(arg));
    return { text: "slept" };
  });
  ext.hook("before_prompt", async (payload, ctx) => {
    await slowPrompt(payload.prompt, ctx);
    if (payload.prompt === "hook:block") return { disposition: { action: "block", message: "blocked by the fixture" } };
    if (payload.prompt === "hook:rewrite") return { disposition: { action: "replace", prompt: "rewritten by the fixture" } };
    return { disposition: { action: "continue" } };
  });
  // The tool hooks answer the dispositions hooks.dispositions_applied expects the host to
  // apply, chosen by the call's "value" argument (docs/design/fixture.md).
  ext.hook("before_tool_call", (payload) => {
    const value = (payload.arguments as JsonObject)["value"];
    if (value === "hook:block") return { disposition: { action: "block", message: "blocked by the fixture" } };
    if (value === "hook:rewrite") return { disposition: { action: "replace", arguments: { value: "rewritten by the fixture" } } };
    return { disposition: { action: "continue" } };
  });
  ext.hook("after_tool_call", (payload) => {
    const value = (payload.arguments as JsonObject)["value"];
    if (value === "hook:replace") return { disposition: { action: "replace", output: "replaced by the fixture" } };
    if (value === "hook:withhold") return { disposition: { action: "block", message: "withheld by the fixture" } };
    return {};
  });
  ext.context(async (params, ctx) => {
    await slowPrompt(params.prompt, ctx);
    return [{ label: "fixture", content: "fixture context", placement: "system_suffix" }];
  });
  ext.status("status", async (params, ctx) => {
    await slowPrompt(params.resource_owner?.session_id, ctx);
    return { surface: "status", text: "fixture ready", priority: 0 };
  });
  ext.renderer("echo", async (params, ctx) => {
    await slowPrompt((params.arguments as JsonObject)["value"], ctx);
    return { segments: [{ text: "echo", style_role: null }] };
  });
  ext.onLifecycle("turn_settled", (event) => {
    ext.log.info("turn settled", { turn_id: event.turn_id, outcome: event.outcome });
  });
  ext.onShutdown(async () => {
    // Armed: never finishes, so the SDK's bound on shutdown handlers is what ends the process.
    if (stuckShutdown) await new Promise<JsonValue>(() => undefined);
  });
  registerProbe(ext);
  return ext;
}
