"""request_input with options: what is sent, and the chosen value handed back."""

from __future__ import annotations

from octet_extension import Extension
from octet_extension.testing import LoopbackHost


def test_request_input_sends_options_and_free_text() -> None:
    ext = Extension()
    job = {}

    @ext.tool(name="run", description="")
    def run(args, context):
        return {"content": "ok", "structured_content": {"value": job["fn"]()}}

    options = [{"value": "main", "label": "Main"},
               {"value": "dev", "label": "Dev", "description": "unstable"}]
    with LoopbackHost(ext, inputs=["dev", "feature", "x"]) as host:
        got = []
        for fn in (lambda: ext.ui.request_input("Branch?", options=options)["value"],
                   lambda: ext.ui.request_input("Branch?", options=options,
                                                allow_free_text=True)["value"],
                   lambda: ext.ui.request_input("Branch?")["value"]):
            job["fn"] = fn
            got.append(host.call_tool("run")["structured_content"]["value"])
        assert got == ["dev", "feature", "x"]
        sent = [r["params"] for r in host.requests_from_extension("input/request")]
    for p in sent:
        p.pop("parent_request_id")
    assert sent == [
        {"prompt": "Branch?", "secret": False, "options": options},
        {"prompt": "Branch?", "secret": False, "options": options, "allow_free_text": True},
        {"prompt": "Branch?", "secret": False},
    ]
