"""structured-hello: seed 002's Python SDK example, unchanged (API 0.2, pinned)."""

from octet_extension import Extension

ext = Extension(api_version="0.2")


@ext.tool(
    name="hello_world",
    description="Greet someone",
    output_schema={"type": "object", "properties": {"greeting": {"type": "string"}}, "required": ["greeting"]},  # noqa: E501
)
def hello(args):
    return {
        "content": [{"type": "text", "text": "Hello!"}],
        "structured_content": {"greeting": "Hello!"},
    }


ext.run()
