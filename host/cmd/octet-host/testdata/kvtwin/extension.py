"""Remembers one note in its own KV namespace and recalls it (kvidentity_test.go)."""

from octet_extension import Extension, text_content, tool_result

ext = Extension()


@ext.tool(name="remember", description="store a note",
          parameters={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
def remember(args):
    ext.kv.put("note", args["text"])
    return tool_result(text_content("stored"))


@ext.tool(name="recall", description="read the note back")
def recall(args):
    entry = ext.kv.get("note")
    return tool_result(text_content("nothing" if entry is None else "note: " + entry.value))


ext.run()
