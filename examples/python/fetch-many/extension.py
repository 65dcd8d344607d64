"""fetch-many: seed 001's cancellation and progress example, with a stand-in fetch()."""

from octet_extension import Extension, current_cancellation

ext = Extension()


def fetch(item):
    # Stand-in for real I/O: waits interruptibly so cancellation is prompt.
    current_cancellation().sleep(float(item.get("delay_ms", 0)) / 1000 if isinstance(item, dict)
                                 else 0)


@ext.tool(name="fetch_many", description="Fetch several records",
          parameters={"type": "object", "properties": {"items": {"type": "array"}},
                      "required": ["items"]})
def fetch_many(args):
    token = current_cancellation()
    for index, item in enumerate(args["items"]):
        token.raise_if_cancelled()
        fetch(item)
        ext.progress.report({
            "type": "status",
            "message": f"Fetched {index + 1} of {len(args['items'])}",
            "current": index + 1,
            "total": len(args["items"]),
            "unit": "records",
        })
    ext.progress.output("stderr", "all records fetched", encoding="utf8")
    return "done"


ext.run()
