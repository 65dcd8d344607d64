"""Every frame both sides exchange validates against the generated schema (_generated/_models.py).

The SDK's own checks are hand-written for speed; this test holds them to the schema, the
single source of truth, by replaying real sessions through the generated validators.
"""

from __future__ import annotations

from typing import Any

from helpers import example_host

from octet_extension import Extension
from octet_extension._generated import _models
from octet_extension.testing import LoopbackHost

OWNER = {"session_id": "s", "extension_instance_id": "i", "process_generation": 1}


def check_frames(frames: list[tuple[str, dict[str, Any]]], api: str) -> int:
    """Validate each frame by its method's registered type; return how many were checked."""
    sent: dict[tuple[str, Any], str] = {}  # (direction, id) -> method
    problems, checked = [], 0
    for direction, msg in frames:
        method = msg.get("method")
        if method is not None:
            info = _models.METHODS.get(method)
            if info is None:
                continue  # e.g. the test host's own sync probe
            type_name = info.params.get(api)
            if "id" in msg:
                sent[(direction, msg["id"])] = method
        else:
            other = "out" if direction == "in" else "in"
            answered = sent.get((other, msg.get("id")))
            if answered is None:
                continue
            if "error" in msg:
                type_name = "ErrorObject"
                msg = {"params": msg["error"]}
            else:
                type_name = _models.METHODS[answered].result.get(api)
                msg = {"params": msg["result"]}
        if type_name is None:
            problems.append(f"{method}: no type for API {api}")
            continue
        errors = _models.validate(type_name, msg.get("params", {}))
        checked += 1
        if errors:
            problems.append(f"{direction} {method or 'response'} as {type_name}: {errors}")
    assert problems == []
    return checked


def test_fixture_session_frames_match_the_schema(scratch) -> None:
    with example_host("conformance-fixture", scratch_dir=scratch, confirmations=[True],
                      inputs=["typed"], secrets={"fixture.token": "v"}) as host:
        calls = [
            ("echo", {"value": [1, {"a": None}]}), ("typed", {"count": 1, "label": "x"}),
            ("typed", {"count": "1", "label": "x"}), ("progress_n", {"n": 2}),
            ("fail_with", {"code": 9, "message": "m", "data": [1]}),
            ("publish", {"bytes": 10, "mode": "inline"}),
            ("publish", {"bytes": 10, "mode": "path"}),
            ("register_dynamic", {"name": "dyn", "text": "t"}), ("dyn", {}),
            ("unregister_dynamic", {"name": "dyn"}),
            ("ask", {"kind": "confirm", "prompt": "ok?"}),
            ("ask", {"kind": "input", "prompt": "name?"}), ("secret", {"name": "fixture.token"}),
            ("present", {"revision": 1, "activities": 2}),
            ("spawn_child", {"task_name": "t", "message": "m", "key": "k"}),
            ("kv_commit", {"preconditions": [], "writes": [
                {"op": "put", "namespace": "conformance-fixture", "key": "k", "value": 1}]}),
            ("kv_get", {"namespace": "conformance-fixture", "key": "k"}),
            ("callback_n", {"n": 1}), ("big_result", {"bytes": 2_000_000}),
        ]
        for name, arguments in calls:
            host.request("tool/call", {"name": name, "arguments": arguments,
                                       "resource_owner": OWNER, "call_id": "c"})
        host.request("command/execute", {"name": "fixture_cmd", "arguments": ["a"]})
        host.request("hook/run", {"hook": "before_prompt", "payload": {"prompt": "p"}})
        host.request("context/collect", {})
        host.request("status/collect", {"surface": "status"})
        host.request("tool/render", {"name": "echo", "arguments": {}, "result": {
            "content": [{"type": "text", "text": "echo"}]}})
        host.request("shutdown", {"reason": "host_exit"})
        assert check_frames(host.frames, "0.4") > 60


def test_api_01_session_frames_match_the_schema() -> None:
    ext = Extension()
    ext.tool(name="t", description="")(lambda a: ext.ui.confirm("sure?")["confirmed"] and "yes")
    ext.command(name="c", description="")(lambda a: "ok")
    with LoopbackHost(ext, api_version="0.1", confirmations=[True]) as host:
        host.call_tool("t")
        host.request("command/execute", {"name": "c", "arguments": []})
        host.request("shutdown", {})
        assert check_frames(host.frames, "0.1") >= 8


def test_notifications_and_contributions_match_the_schema() -> None:
    ext = Extension()
    ext.context(lambda params: [])
    ext.status("status")(lambda params: "ok")

    @ext.tool(name="t", description="")
    def t(args):
        ext.ui.notify("hello", level="warning", title="t")
        ext.progress.report({"type": "status", "message": "m", "current": 1, "total": 2,
                             "unit": "u"})
        ext.progress.decoration("label", detail="d")
        ext.presentation.update({"revision": 1, "activities": [], "actions": []})
        return "ok"

    with LoopbackHost(ext) as host:
        host.call_tool("t")
        ext.ui.contribute_context([{"label": "l", "content": "c", "placement": "system_prefix"}])
        ext.ui.contribute_status("status", "ready", style_role=None)
        ext.presentation.update({"revision": 2, "activities": [], "actions": []},
                                resource_owner=OWNER)
        host.sync()
        assert check_frames(host.frames, "0.4") >= 10
