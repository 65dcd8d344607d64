"""git-tools: a bounded custom tool, a command and a semantic renderer."""

import subprocess

from octet_extension import Extension, ToolError, current_cancellation, text_content, tool_result

ext = Extension()

MAX_LINES = 200


def git(*args: str) -> subprocess.CompletedProcess[str]:
    # The host starts us in the workspace, so plain relative git calls act on it.
    return subprocess.run(["git", *args], capture_output=True, text=True, timeout=10)


@ext.tool(
    name="git_status",
    description="List changed files in the workspace (porcelain format, bounded)",
    parameters={"type": "object", "properties": {}, "additionalProperties": False},
)
def git_status(args, context):
    current_cancellation().raise_if_cancelled()
    proc = git("status", "--porcelain")
    if proc.returncode != 0:
        raise ToolError(1, "git status failed", {"stderr": proc.stderr[-2000:]})
    lines = proc.stdout.splitlines()
    shown = lines[:MAX_LINES]
    text = "\n".join(shown) or "clean"
    if len(lines) > MAX_LINES:
        text += f"\n... and {len(lines) - MAX_LINES} more"
    return tool_result(text_content(text), metadata={"changed": len(lines)})


@ext.command(name="checkpoint", description="Preview a checkpoint")
def checkpoint(arguments, context):
    message = " ".join(arguments) or "checkpoint"
    changed = len(git("status", "--porcelain").stdout.splitlines())
    return {"text": f"would commit {changed} changed files as {message!r}"}


@ext.renderer("git_status")
def render(params):
    result = params.get("result", {})
    changed = result.get("metadata", {}).get("changed", 0)
    role = "success" if changed == 0 else "warning"
    return {"segments": [{"text": f"git: {changed} changed", "style_role": role}]}


ext.run()
