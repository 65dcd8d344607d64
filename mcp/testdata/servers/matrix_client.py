"""The Python `mcp` client (PyPI, pinned in requirements.txt) as a compatibility-matrix
driver: python matrix_client.py PLAN_JSON COMMAND ARGS... connects over stdio to COMMAND,
lists the tools, makes the plan's calls and prints one JSON object with what it saw."""

import asyncio
import json
import sys
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main() -> None:
    plan = json.loads(sys.argv[1])
    params = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:])
    out: dict[str, Any] = {"tools": [], "calls": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            out["protocol"] = init.protocol_version
            listed = await session.list_tools()
            out["tools"] = [{"name": t.name, "output_schema": t.output_schema is not None} for t in listed.tools]
            for c in plan:
                progress: list[float] = []

                async def on_progress(p: float, total: float | None, message: str | None) -> None:
                    progress.append(p)

                rec: dict[str, Any] = {"tool": c["tool"]}
                try:
                    r = await session.call_tool(c["tool"], c["args"], progress_callback=on_progress if c.get("progress") else None)
                    rec["is_error"] = bool(r.is_error)
                    rec["text"] = "\n".join(getattr(p, "text", "") for p in r.content)
                    rec["structured"] = r.structured_content
                except Exception as e:  # a JSON-RPC error, or the client's own refusal
                    rec["error"] = {"code": getattr(getattr(e, "error", None), "code", None), "message": str(e)}
                rec["progress"] = len(progress)
                out["calls"].append(rec)
    print(json.dumps(out))


asyncio.run(main())
