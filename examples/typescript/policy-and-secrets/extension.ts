// policy-and-secrets: structured policy intents (with one-use approval retry), a brokered
// secret that never reaches results or logs, and a cooperative confirmation.
import { createHash } from "node:crypto";
import { Extension, FeatureName, textContent, toolResult, type PolicyIntent } from "octet-extension-sdk";

const ext = new Extension({ apiVersion: "0.4" });

ext.tool(
  {
    name: "submit_comment",
    description: "Submit a comment to example.com after policy approval",
    parameters: { type: "object", properties: { text: { type: "string", maxLength: 2000 } }, required: ["text"] },
  },
  async (args) => {
    const intent: PolicyIntent = {
      kind: "external_side_effect",
      operation: "browser.submit_form",
      target: { origin: "https://example.com", label: "Publish comment" },
      data_classes: ["user_text"],
      adapter_hints: { read_only: false, destructive: false },
    };
    let policy = await ext.policy.evaluate(intent);
    if (policy.decision === "ask" && policy.approval_token !== undefined && ext.negotiatedFeatures.has(FeatureName.APPROVALS)) {
      policy = await ext.policy.evaluate(intent, { approvalToken: policy.approval_token });
    }
    if (policy.decision !== "allow") return toolResult(textContent(`The host denied the action: ${policy.reason ?? policy.decision}.`), { isError: true });
    if (!(await ext.ui.confirm("Publish this comment?", { title: "policy-and-secrets" })).confirmed) {
      return toolResult(textContent("The user declined."), { isError: true });
    }
    const { value: token } = await ext.secrets.get("demo.api_token");
    // Only a digest prefix leaves this function; the token itself is never returned or logged.
    const proof = createHash("sha256").update(token).update(args.text).digest("hex").slice(0, 12);
    ext.ui.notify("Comment submitted", { level: "success" });
    return `Submitted (${args.text.length} chars, signature ${proof}).`;
  },
);

await ext.run();
