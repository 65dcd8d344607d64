// orchestrate: child model sessions through the host's bounded service.
import { Extension, textContent, toolResult } from "octet-extension-sdk";

const ext = new Extension({ apiVersion: "0.4" });

ext.tool({ name: "orchestrate", description: "Delegate a bounded investigation" }, async (_args, ctx) => {
  const child = await ext.spawnAgent({
    taskName: "inspect-catalog",
    profile: "review",
    message: "Inspect the current provider tool catalog.",
    // Retrying the same call must not start a second child: the key is scoped to this request.
    idempotencyKey: `catalog:${String(ctx.requestId)}`,
    tools: ["read", "search"],
    maxDepth: 1,
    maxConcurrentChildren: 2,
    maxTurns: 8,
    maxTokens: null,
    maxCostMicrodollars: 200_000,
    maxOutputBytes: 8_192,
    timeoutMs: 300_000,
  });
  await ext.sendAgentMessage(child.agent_id, "Include resource tools.");
  await ext.followUpAgent(child.agent_id, "Return a compact summary.");
  const settled = await ext.waitAgents({ timeoutMs: 30_000 });
  const agents = await ext.listAgents();
  if (settled.timed_out) await ext.interruptAgent(child.agent_id);
  return toolResult(textContent(`Observed ${agents.length} owned child sessions.`));
});

await ext.run();
