"""The kvmigrate extension in Python (migration_test.go): the same tools and migration as
the Go and TypeScript copies beside it."""

from octet_extension import Extension

ext = Extension()


@ext.migration(from_version=1)
def wrap_note(tx):
    # From version 1 the note is wrapped as {"migrated": <old>}; a second run would nest.
    note = tx.get("note")
    if note is not None:
        tx.put("note", {"migrated": note})


@ext.tool(name="remember", description="store a note",
          parameters={"type": "object", "properties": {"text": {"type": "string"}},
                      "required": ["text"]})
def remember(args):
    ext.kv.put("note", args["text"])
    return "stored"


@ext.tool(name="recall", description="read the note back")
def recall(args):
    entry = ext.kv.get("note")
    value, depth = entry.get("value"), 0
    while isinstance(value, dict):
        value, depth = value.get("migrated"), depth + 1
    return f"note: {value}, migrated {depth}"


ext.run()
