"""A catalog mutation whose handler is cancelled while the host commits it."""

from octet_extension import Extension
from octet_extension.testing import LoopbackHost


def test_cancelled_handler_still_commits_the_acknowledged_revision() -> None:
    # The host may commit a tools/register it then answers; the SDK awaits that answer even
    # when the calling handler is cancelled meanwhile, so its revision never falls behind
    # (it used to drop the answer and refuse every later mutation: "answered revision 2,
    # expected 1"). Go and TypeScript behave the same (tools.cancel_mid_flight).
    ext = Extension()
    revision = {"n": 0}
    pending = []

    @ext.tool(name="enable", description="")
    def enable(args, context):
        update = ext.catalog.register([{"name": "dyn", "description": "",
                                        "handler": lambda a: "dyn"}])
        return {"content": f"revision {update['revision']}"}

    def register(params):
        if pending:
            host.cancel(pending[0].id)  # cancelled while the host commits
        revision["n"] += 1
        return {"revision": revision["n"], "tools": ["dyn", "enable"]}

    with LoopbackHost(ext, services={"tools/register": register}) as host:
        pending.append(host.start_tool("enable"))
        first = pending[0].wait()
        assert first.error is None or first.error["code"] == -32800, first
        assert ext.catalog.revision() == 1
        pending.clear()
        again = host.call_tool("enable")
        assert again["content"][0]["text"] == "revision 2"
        assert ext.catalog.revision() == 2
