"""hello-world: seed 001's minimal example, unchanged (it follows the host's API version)."""

from octet_extension import Extension

ext = Extension()


@ext.tool(
    name="hello_world",
    description="Greet someone",
    parameters={"type": "object", "properties": {"name": {"type": "string"}}},
)
def hello(args):
    name = args.get("name", "world")
    return {"content": f"Hello, {name}!"}


ext.run()
