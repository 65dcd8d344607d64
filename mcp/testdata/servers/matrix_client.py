"""The Python `mcp` client (PyPI, pinned in requirements.txt) as a compatibility-matrix
driver: python matrix_client.py PLAN_JSON COMMAND ARGS... connects over stdio to COMMAND,
lists the tools, makes the plan's calls and prints one JSON object with what it saw.

A step marked "cancel" is abandoned at its first progress notification: the client cancels
the task awaiting it, which sends notifications/cancelled. An elicitation is answered with
the step's "elicit" value."""

import asyncio
import json
import sys
from typing import Any

import mcp_types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

elicited = 0


async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    global elicited
    elicited += 1
    return types.ElicitResult(action="accept", content={"value": "Grace"})


async def main() -> None:
    plan = json.loads(sys.argv[1])
    params = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:])
    out: dict[str, Any] = {"tools": [], "calls": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=on_elicit) as session:
            init = await session.initialize()
            out["protocol"] = init.protocol_version
            listed = await session.list_tools()
            out["tools"] = [{"name": t.name, "output_schema": t.output_schema is not None} for t in listed.tools]
            for c in plan:
                progress: list[float] = []
                first = asyncio.Event()

                async def on_progress(p: float, total: float | None, message: str | None) -> None:
                    progress.append(p)
                    first.set()

                rec: dict[str, Any] = {"tool": c["tool"], "cancelled": 0}
                before = elicited
                call = asyncio.ensure_future(session.call_tool(
                    c["tool"], c["args"], progress_callback=on_progress if c.get("progress") else None))
                if c.get("cancel"):
                    waiter = asyncio.ensure_future(first.wait())
                    await asyncio.wait({call, waiter}, return_when=asyncio.FIRST_COMPLETED)
                    waiter.cancel()
                    if not call.done():
                        call.cancel()
                try:
                    r = await call
                    rec["is_error"] = bool(r.is_error)
                    rec["text"] = "\n".join(getattr(p, "text", "") for p in r.content)
                    rec["structured"] = r.structured_content
                except asyncio.CancelledError:
                    rec["cancelled"] = 1
                except Exception as e:  # a JSON-RPC error, or the client's own refusal
                    rec["error"] = {"code": getattr(getattr(e, "error", None), "code", None), "message": str(e)}
                rec["progress"] = len(progress)
                rec["elicited"] = elicited - before
                out["calls"].append(rec)
    print(json.dumps(out))


asyncio.run(main())
