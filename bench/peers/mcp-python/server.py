"""The benchmark's MCP peer for Python: an echo tool and a crash tool over stdio.

Written in the MCP Python SDK's ordinary style (MCPServer and a decorated function
with a typed result), returning structured {value} like the octet fixture's echo.
"""

import os
from typing import TypedDict

from mcp.server.mcpserver import MCPServer

app = MCPServer("bench-mcp-python")


class EchoOut(TypedDict):
    value: str


@app.tool()
def echo(value: str) -> EchoOut:
    """Echo the value."""
    return {"value": value}


@app.tool()
def crash(code: int = 3) -> str:
    """Exit at once without answering."""
    os._exit(code)


if __name__ == "__main__":
    app.run()
