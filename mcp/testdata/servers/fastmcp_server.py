"""A FastMCP server (FastMCP from PyPI, pinned in requirements.txt) for the mcp module's
end-to-end tests: typed tools, a structured result, nested pydantic models in and out
(schemas with $defs and $ref, as every Python MCP server sends them), a tool error,
progress, elicitation, a resource and a prompt."""

from pydantic import BaseModel

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



class Point(BaseModel):
    x: float
    y: float


class Segment(BaseModel):
    start: Point
    end: Point


class Route(BaseModel):
    name: str
    segments: list[Segment]
    closed: bool = False


@server.tool
def route(name: str, points: list[Point]) -> Route:
    """Join points into a route of segments (nested models in and out)."""
    segs = [Segment(start=a, end=b) for a, b in zip(points, points[1:])]
    return Route(name=name, segments=segs, closed=len(points) > 2 and points[0] == points[-1])


class Node(BaseModel):
    """A tree node: recursive, so its schema keeps $defs and $ref (FastMCP cannot inline it)."""

    label: str
    children: list["Node"] = []


@server.tool
def tree(depth: int, fanout: int = 2) -> Node:
    """Build a tree of the given depth (a recursive model out)."""

    def build(label: str, d: int) -> Node:
        return Node(label=label, children=[build(f"{label}.{i}", d - 1) for i in range(fanout)] if d > 0 else [])

    return build("root", min(depth, 4))


@server.tool
async def ask_name(ctx: Context) -> str:
    """Ask the user for a name (elicitation) and greet them."""
    answer = await ctx.elicit("What is your name?", response_type=str)
    if answer.action != "accept":
        return f"no name ({answer.action})"
    return f"hello {answer.data}"


@server.resource("octet://greeting")
def greeting() -> str:
    """A fixed text resource."""
    return "hello from the FastMCP test server"


@server.prompt
def summarise(topic: str) -> str:
    """A prompt asking for a summary of topic."""
    return f"Summarise {topic} in one sentence."


if __name__ == "__main__":
    server.run(show_banner=False)
