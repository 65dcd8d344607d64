"""Remembers one note in its own KV namespace and recalls it (kvidentity_test.go)."""

import os

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
    return tool_result(text_content("note: " + entry["value"] if entry["found"] else "nothing"))


@ext.tool(name="state_write", description="write a file into the durable state directory",
          parameters={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
def state_write(args):
    with open(os.path.join(os.environ["OCTET_EXTENSION_STATE"], "note.txt"), "w") as f:
        f.write(args["text"])
    return tool_result(text_content("written"))


@ext.tool(name="state_read", description="read the durable state file back")
def state_read(args):
    path = os.path.join(os.environ["OCTET_EXTENSION_STATE"], "note.txt")
    if not os.path.exists(path):
        return tool_result(text_content("no file"))
    with open(path) as f:
        return tool_result(text_content("file: " + f.read()))


@ext.migration(from_version=1)
def nothing_to_convert(tx):
    """The note's shape did not change in version 2: the step only moves the version."""


@ext.tool(name="set_kv_version", description="store a kv_version as the SDK does after a migration",
          parameters={"type": "object", "properties": {"version": {"type": "integer"}}, "required": ["version"]})
def set_kv_version(args):
    ext.kv.put("octet:kv_version", args["version"])
    return tool_result(text_content("set"))


ext.run()
