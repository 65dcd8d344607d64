"""A FastMCP server (FastMCP from PyPI, pinned in requirements.txt) for the mcp module's
end-to-end tests: typed tools, a structured result, a tool error and progress."""

from fastmcp import Context, FastMCP

server = FastMCP("octet-fastmcp-test")


@server.tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


@server.tool
def refuse(reason: str) -> str:
    """Fail with the given reason (a tool error)."""
    raise ValueError(reason)


@server.tool
async def count(n: int, ctx: Context) -> str:
    """Report progress n times, then finish."""
    for i in range(n):
        await ctx.report_progress(i + 1, n)
    return f"counted {n}"


if __name__ == "__main__":
    server.run(show_banner=False)
