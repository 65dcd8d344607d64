"""Every Python example, started as a real subprocess through its `run` launcher."""

from __future__ import annotations

import hashlib
import time

import pytest
from helpers import EXAMPLES, example_host

from octet_extension import RemoteError


def text_part(value):
    return {"type": "text", "text": value}


def text(result):
    return result["content"][0]["text"]


def test_every_example_has_manifest_readme_and_executable_launcher() -> None:
    names = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())
    assert {"hello-world", "git-tools", "fetch-many", "capture", "dynamic-provider-search",
            "orchestrate", "lifecycle-counting", "policy-and-secrets", "contribution-points",
            "structured-hello", "conformance-fixture"} <= set(names)
    for name in names:
        directory = EXAMPLES / name
        assert (directory / "extension.toml").is_file(), name
        assert (directory / "README.md").is_file(), name
        assert (directory / "run").stat().st_mode & 0o111, name


def test_hello_world() -> None:
    with example_host("hello-world") as host:
        assert host.initialize_result["api_version"] == "0.4"
        assert text(host.call_tool("hello_world", {"name": "Ada"})) == "Hello, Ada!"
        assert text(host.call_tool("hello_world", {})) == "Hello, world!"
        with pytest.raises(RemoteError) as err:
            host.call_tool("hello_world", {"name": 5})
        assert err.value.code == -32602
        assert host.shutdown().result == {}
        assert host.wait_exit() == 0


def test_git_tools(tmp_path) -> None:
    with example_host("git-tools", cwd=tmp_path) as host:
        with pytest.raises(RemoteError) as err:  # not a repository: a structured tool error
            host.call_tool("git_status")
        assert err.value.code == 1 and "git status failed" in err.value.message
        checkpoint = host.request("command/execute", {"name": "checkpoint",
                                                      "arguments": ["wip"]})
        assert checkpoint.result["text"].endswith("as 'wip'")
        rendered = host.request("tool/render", {"name": "git_status", "arguments": {},
                                                "result": {"content": [text_part("x")],
                                                           "metadata": {"changed": 2}}})
        assert rendered.result == {"segments": [{"text": "git: 2 changed",
                                                 "style_role": "warning"}]}


def test_fetch_many_progress_and_cancellation() -> None:
    with example_host("fetch-many") as host:
        response = host.request("tool/call", {"name": "fetch_many",
                                              "arguments": {"items": [1, 2, 3]}})
        assert text(response.result) == "done"
        events = host.notifications("$/progress")
        assert [e["sequence"] for e in events] == [1, 2, 3, 4]
        assert events[2]["event"] == {"type": "status", "message": "Fetched 3 of 3",
                                      "current": 3, "total": 3, "unit": "records"}
        assert events[3]["event"]["type"] == "output"
        slow = host.start_tool("fetch_many", {"items": [{"delay_ms": 60_000}]})
        host.cancel(slow.id)
        assert slow.wait().error["code"] == -32800


def test_capture_inline_and_path(scratch) -> None:
    with example_host("capture", scratch_dir=scratch) as host:
        result = host.call_tool("capture", {"url": "https://example.com"})
        assert result["structured_content"] == {"url": "https://example.com"}
        assert result["metadata"] == {"cache": "miss"}
        image = result["content"][1]
        assert image["type"] == "image" and image["alt"] == "Page after submit"
        assert host.artifacts[image["artifact_id"]].startswith(b"\x89PNG")
        by_path = host.call_tool("capture_file", {"size": 3})
        request = host.requests_from_extension("artifact/publish")[1]["params"]
        assert request["path"].startswith("captures/") and request["path"].endswith(".png")
        data = (scratch / request["path"]).read_bytes()
        assert host.artifacts[by_path["content"][1]["artifact_id"]] == data
        assert request["sha256"] == hashlib.sha256(data).hexdigest()


def test_dynamic_provider_search() -> None:
    with example_host("dynamic-provider-search") as host:
        assert "revision 1" in text(host.call_tool("select_provider", {"provider": "web"}))
        assert text(host.call_tool("provider_search", {"query": "q"})) == "result for q"
        assert "now at 2" in text(host.call_tool("clear_provider"))
        assert text(host.call_tool("provider_search", {"query": "old"},
                                   catalog_revision=1)) == "result for old"
        with pytest.raises(RemoteError, match="unknown tool"):
            host.call_tool("provider_search", {"query": "q"})


def test_orchestrate() -> None:
    with example_host("orchestrate") as host:
        assert text(host.call_tool("orchestrate")) == "Observed 1 owned child sessions."
        spawn = host.requests_from_extension("agent/spawn")[0]["params"]
        assert spawn["idempotency_key"] == f"catalog:{spawn['parent_request_id']}"
        assert [m["method"] for _, m in host.frames if m.get("method", "").startswith("agent/")
                ] == ["agent/spawn", "agent/message", "agent/follow_up", "agent/wait",
                      "agent/list"]


def test_lifecycle_counting() -> None:
    with example_host("lifecycle-counting") as host:
        # Subscriptions are listed in the LifecycleEvent enum's order (negotiation vectors).
        assert host.initialize_result["protocol"]["lifecycle_events"] == [
            "session/settled", "turn/started", "turn/settled"]
        host.notify("turn/started", {"session_id": "s", "turn_id": "1"})
        host.notify("turn/started", {"session_id": "s", "turn_id": "2"})
        host.notify("turn/settled", {"session_id": "s", "turn_id": "1", "outcome": "completed"})
        # Lifecycle handlers run on a worker, in arrival order; poll the tool until the
        # last one is seen (bounded by time, not by a number of polls a loaded machine
        # may get through before the worker runs).
        deadline = time.monotonic() + 10
        while (counts := host.call_tool("turn_counts")["structured_content"])["settled"] != 1:
            assert time.monotonic() < deadline, f"observations not seen: {counts}"
        assert counts == {"active": 1, "settled": 1}
        status = host.request("status/collect", {"surface": "status"})
        assert status.result["text"] == "1 active turns"
        assert host.shutdown().result == {}
    assert any('"released all turn holds"' in line for line in host.stderr_lines)


def test_policy_and_secrets() -> None:
    token = "cd" * 32

    def policy(params):
        if params.get("approval_token") == token:
            return {"decision": "allow"}
        return {"decision": "ask", "approval_token": token}

    with example_host("policy-and-secrets", policy=policy, confirmations=[True],
                      secrets={"browser.api_token": "hunter2"}, inputs=["pw"]) as host:
        result = host.call_tool("submit_comment")
        assert text(result) == "Comment published."
        assert "hunter2" not in repr(host.raw_lines) + "".join(host.stderr_lines)
        assert host.notifications("notification")[0]["level"] == "success"
        assert text(host.call_tool("login")) == "Received 2 characters."
    with example_host("policy-and-secrets") as host:  # default test policy denies
        assert host.call_tool("submit_comment")["is_error"] is True


def test_contribution_points() -> None:
    with example_host("contribution-points") as host:
        assert text(host.call_tool("hello_world", {"name": "Ada"})) == "Hello, Ada!"
        assert host.notifications("presentation/update")[0]["snapshot"]["revision"] == 0
        host.call_tool("decorate")
        decoration = host.notifications("$/progress")[0]["event"]
        assert decoration == {"type": "decoration", "label": "indexing", "detail": "3 files"}
        hook = host.request("hook/run", {"hook": "before_persistence",
                                         "payload": {"name": "t", "output": "o"}})
        assert hook.result == {"persistence_metadata": {"value": {"tool": "t"},
                                                        "public": False}}
        hook = host.request("hook/run", {"hook": "post_mutation",
                                         "payload": {"name": "t", "resource_ids": ["r1"]}})
        assert hook.result == {"post_mutation_rescan": {"resource_ids": ["r1"]}}
        assert host.request("context/collect", {}).result["items"][0]["label"] == "example"


def test_structured_hello_pins_api_02() -> None:
    with example_host("structured-hello") as host:
        assert host.initialize_result["api_version"] == "0.2"
        assert host.call_tool("hello_world")["structured_content"] == {"greeting": "Hello!"}


def test_typed_tools() -> None:
    with example_host("typed-tools") as host:
        tools = {t["name"]: t for t in host.initialize_result["tools"]}
        assert tools["area"]["output_schema"]["required"] == ["area"]
        assert tools["route"]["parameters"]["properties"]["stops"]["minItems"] == 1
        area = host.call_tool("area", {"width": 3, "height": 4})
        assert area["structured_content"] == {"area": 12, "unit": "m"}
        route = host.call_tool("route", {"stops": [{"name": "a", "minutes": 10},
                                                   {"name": "b", "minutes": 20}],
                                         "mode": "cycle"})
        assert route["structured_content"] == {"total_minutes": 15, "mode": "cycle",
                                               "names": ["a", "b"]}
        with pytest.raises(RemoteError) as err:
            host.call_tool("route", {"stops": []})
        assert err.value.code == -32602
