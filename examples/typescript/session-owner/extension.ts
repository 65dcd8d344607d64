// session-owner owns session policy (docs/host.md#the-session-owner): its before_prompt
// hook judges every prompt before the model sees it. A prompt naming a denied topic is
// blocked; a prompt the policy cannot judge (control characters) makes the hook fail, and
// because this extension is the owner the host stops the turn rather than letting the
// prompt through. audit_log is private: hidden from the model's catalog.
import { Extension } from "octet-extension-sdk";

const deniedTopics = ["password", "credit card"];
const counts = { judged: 0, blocked: 0 };

const ext = new Extension({ apiVersion: "0.4" });

// Control characters other than newline and tab.
const control = /[\u0000-\u0008\u000b-\u001f\u007f]/;

ext.hook("before_prompt", (payload) => {
  const prompt = String(payload.prompt ?? "");
  counts.judged++;
  if (control.test(prompt)) throw new Error("the policy cannot judge a prompt with control characters");
  const lower = prompt.toLowerCase();
  for (const topic of deniedTopics) {
    if (lower.includes(topic)) {
      counts.blocked++;
      return { disposition: { action: "block", message: `the session policy does not allow prompts about ${topic}` } };
    }
  }
  return { disposition: { action: "continue" } };
});

ext.tool(
  { name: "policy_status", description: "Say which topics the session policy blocks", parameters: { type: "object", properties: {} } },
  () => `blocked topics: ${deniedTopics.join(", ")}`,
);

ext.tool(
  { name: "audit_log", description: "Count the prompts the policy judged and blocked (private to the owner)", parameters: { type: "object", properties: {} } },
  () => `${counts.judged} prompts judged, ${counts.blocked} blocked`,
);

await ext.run();
