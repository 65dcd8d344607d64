// orchestrate: child model sessions through the host's bounded service.
import { Extension, textContent, toolResult } from "octet-extension-sdk";

const ext = new Extension({ apiVersion: "0.4" });

ext.tool({ name: "orchestrate", description: "Delegate a bounded investigation" }, async (_args, ctx) => {
  const child = await ext.agents.spawn("inspect-catalog", "Inspect the current provider tool catalog.", {
    profile: "review",
    // Retrying the same call must not start a second child: the key is scoped to this request.
    idempotencyKey: `catalog:${String(ctx.requestId)}`,
    policy: {
      tools: ["read", "search"],
      max_depth: 1,
      max_concurrent_children: 2,
      max_turns: 8,
      max_tokens: null,
      max_cost_microdollars: 200_000,
      max_output_bytes: 8_192,
      timeout_ms: 300_000,
    },
  });
  await ext.agents.message(child.agent_id, "Include resource tools.");
  await ext.agents.followUp(child.agent_id, "Return a compact summary.");
  const settled = await ext.agents.wait({ timeoutMs: 30_000 });
  const { agents } = await ext.agents.list();
  if (settled.timed_out) await ext.agents.interrupt(child.agent_id);
  return toolResult(textContent(`Observed ${agents.length} owned child sessions.`));
});

await ext.run();
