// git-tools: a bounded tool, a command and a semantic renderer.
import { execFile } from "node:child_process";
import { Extension, textContent, toolResult } from "octet-extension-sdk";

const MAX_OUTPUT = 16 * 1024;
const ext = new Extension({ apiVersion: "0.4" });

/** Run git in the workspace; output is capped so a huge repository cannot flood the model. */
function git(args: string[], signal: AbortSignal): Promise<{ ok: boolean; out: string }> {
  const cwd = process.env["OCTET_WORKSPACE"] ?? process.cwd();
  return new Promise((resolve) => {
    execFile("git", args, { cwd, signal, maxBuffer: 4 * MAX_OUTPUT }, (err, stdout, stderr) => {
      const out = (err ? stderr || err.message : stdout).slice(0, MAX_OUTPUT);
      resolve({ ok: err === null, out });
    });
  });
}

ext.tool(
  {
    name: "git_status",
    description: "Show the working tree status (short format)",
    parameters: { type: "object", properties: { untracked: { type: "boolean" } }, additionalProperties: false },
    outputSchema: { type: "object", properties: { changed: { type: "integer" } }, required: ["changed"] },
  },
  async (args, ctx) => {
    const { ok, out } = await git(["status", "--short", args.untracked === false ? "--untracked-files=no" : "--untracked-files=normal"], ctx.signal);
    const changed = ok ? out.split("\n").filter((l) => l.trim() !== "").length : 0;
    return toolResult(textContent(ok ? out || "clean" : `git failed: ${out}`), { isError: !ok, structuredContent: { changed } });
  },
);

ext.command({ name: "checkpoint", description: "Preview what a checkpoint would record" }, async (args, ctx) => {
  const { ok, out } = await git(["diff", "--stat", ...args], ctx.signal);
  return ok ? { text: out || "nothing to checkpoint" } : { text: out, is_error: true };
});

ext.renderer("git_status", (params) => {
  const sc = "structured_content" in params.result ? params.result.structured_content : undefined;
  const changed = typeof sc?.["changed"] === "number" ? sc["changed"] : 0;
  return { segments: [{ text: `${changed} changed`, style_role: changed > 0 ? "warning" : "success" }] };
});

await ext.run();
