"""The conformance fixture (docs/design/fixture.md) over both transports: served in this
process (loopback) and as a real subprocess. What only a real process shows (the protected
stdout, a crash's exit code) runs over the process alone."""

from __future__ import annotations

import hashlib
import json
import time

import pytest
from helpers import TRANSPORTS, example_host_over

from octet_extension import RemoteError

SECRET = "fixture-secret"


def start(transport, scratch):
    host = example_host_over(transport, "conformance-fixture", scratch_dir=scratch,
                             confirmations=[True], inputs=["typed", "pw"],
                             secrets={"fixture.token": SECRET})
    host.transport = transport
    return host


@pytest.fixture(scope="module", params=TRANSPORTS)
def transport(request):
    return request.param


@pytest.fixture(scope="module")
def shared(transport, tmp_path_factory):
    """One extension for the tests that leave it running (process start-up dominates)."""
    scratch = tmp_path_factory.mktemp("scratch")
    with start(transport, scratch) as h:
        h.scratch = scratch
        yield h


@pytest.fixture
def host(transport, scratch):
    """A fresh extension for tests that end it (shutdown, crash, EOF)."""
    with start(transport, scratch) as h:
        yield h


def process_only(host, why):
    if host.transport != "process":
        pytest.skip(f"only a real process shows {why}")


def sc(result):
    return result["structured_content"]


def test_echo_typed_and_validation(shared) -> None:
    host = shared
    assert host.call_tool("echo", {"value": {"a": [1, None]}}) == {
        "content": [{"type": "text", "text": "echo"}],
        "structured_content": {"value": {"a": [1, None]}}}
    assert host.call_tool("typed", {"count": 2, "label": "n"})["content"][0]["text"] == "n:2"
    for bad in ({"count": "2", "label": "n"}, {"count": 2}, {"count": 2, "label": "n", "x": 1}):
        with pytest.raises(RemoteError) as err:
            host.call_tool("typed", bad)
        assert err.value.code == -32602


def test_fail_with_is_verbatim(shared) -> None:
    host = shared
    response = host.request("tool/call", {"name": "fail_with", "arguments": {
        "code": 1234, "message": "nope", "data": {"k": "v"}}})
    assert response.error == {"code": 1234, "message": "nope", "data": {"k": "v"}}


def test_slow_progress_and_cancellation(shared) -> None:
    host = shared
    assert host.call_tool("slow", {"ms": 1})["content"][0]["text"] == "slept"
    pending = host.start_tool("slow", {"ms": 60_000})
    host.cancel(pending.id)
    assert pending.wait().error["code"] == -32800
    response = host.request("tool/call", {"name": "progress_n", "arguments": {"n": 3}})
    assert response.result["content"][0]["text"] == "done"
    events = [e for e in host.notifications("$/progress")
              if e["parent_request_id"] == response["id"]]
    assert [(e["sequence"], e["event"]) for e in events] == [
        (i, {"type": "status", "message": f"step {i}", "current": i, "total": 3})
        for i in (1, 2, 3)]


def test_print_stdout_never_reaches_the_protocol(shared) -> None:
    host = shared
    process_only(host, "the protected stdout")
    assert host.call_tool("print_stdout", {"text": "stray"})["content"][0]["text"] == "printed"
    host.sync()
    for line in host.raw_lines:
        json.loads(line)  # every stdout line is a frame
    # stderr is read on its own thread, unordered with the protocol: the tool's answer can
    # arrive before its stray line is in stderr_lines, so both are waited for (bounded).
    deadline = time.monotonic() + 10
    for text in ("stray", "child-output"):
        while not any(text in x for x in host.stderr_lines):
            assert time.monotonic() < deadline, f"{text!r} never reached stderr"
            host.sync()


def test_callback_kv_and_secrets(shared) -> None:
    host = shared
    before = len(host.requests_from_extension("kv.get"))
    assert sc(host.call_tool("callback_n", {"n": 5})) == {"calls": 5}
    assert len(host.requests_from_extension("kv.get")) - before == 5
    write = {"op": "put", "namespace": "conformance-fixture", "key": "k", "value": 1}
    committed = sc(host.call_tool("kv_commit", {"preconditions": [], "writes": [write]}))
    version = committed["versions"][0]["version"]
    assert sc(host.call_tool("kv_get", {"namespace": "conformance-fixture", "key": "k"})) == {
        "found": True, "value": 1, "version": version}
    with pytest.raises(RemoteError) as err:
        host.call_tool("kv_commit", {"preconditions": [
            {"namespace": "conformance-fixture", "key": "k", "absent": True}], "writes": [write]})
    assert err.value.code == -32005 and err.value.data["actual"] == version
    digest = hashlib.sha256(SECRET.encode()).hexdigest()
    assert sc(host.call_tool("secret", {"name": "fixture.token"})) == {"sha256": digest}
    assert SECRET not in "".join(x.decode() for x in host.raw_lines)


def test_big_result_is_answered_32603(shared) -> None:
    host = shared
    with pytest.raises(RemoteError) as err:
        host.call_tool("big_result", {"bytes": 2_000_000})
    assert err.value.code == -32603 and "1048576" in err.value.message
    assert len(host.call_tool("big_result", {"bytes": 10})["content"][0]["text"]) == 10


def test_publish_inline_path_and_corrupt(shared) -> None:
    host, scratch = shared, shared.scratch
    inline = sc(host.call_tool("publish", {"bytes": 300, "mode": "inline"}))
    assert host.artifacts[inline["artifact_id"]] == bytes(i % 251 for i in range(300))
    by_path = sc(host.call_tool("publish", {"bytes": 1000, "mode": "path"}))
    pattern = bytes(i % 251 for i in range(1000))
    assert by_path["sha256"] == hashlib.sha256(pattern).hexdigest()
    assert host.artifacts[by_path["artifact_id"]] == pattern
    # Once the host has its copy, the fixture removes its scratch file.
    assert not (scratch / "fixture.bin").exists()
    for field in ("size", "sha256"):
        with pytest.raises(RemoteError) as err:
            host.call_tool("publish", {"bytes": 10, "mode": "path", "corrupt": field})
        assert err.value.code == -32602 and err.value.data == {"path": field}


def test_dynamic_ask_present_spawn(shared) -> None:
    host = shared
    assert sc(host.call_tool("register_dynamic", {"name": "dyn", "text": "hi"})) == {
        "revision": 1}
    assert host.call_tool("dyn")["content"][0]["text"] == "hi"
    assert sc(host.call_tool("unregister_dynamic", {"name": "dyn"})) == {"revision": 2}
    assert sc(host.call_tool("ask", {"kind": "confirm", "prompt": "ok?"})) == {"answer": True}
    assert sc(host.call_tool("ask", {"kind": "input", "prompt": "name?"})) == {"answer": "typed"}
    assert sc(host.call_tool("ask", {"kind": "input", "prompt": "pw?", "secret": True})) == {
        "answer_sha256": hashlib.sha256(b"pw").hexdigest()}
    assert host.call_tool("present", {"revision": 1, "activities": 2})
    snap = host.notifications("presentation/update")[0]["snapshot"]
    assert snap["activities"][1] == {"id": "a1", "label": "activity 1", "state": "running"}
    with pytest.raises(RemoteError) as err:
        host.call_tool("present", {"revision": 2, "activities": 129})
    assert err.value.code == -32602
    child = sc(host.call_tool("spawn_child", {"task_name": "t", "message": "m", "key": "k"}))
    assert child == {"agent_id": "agent-1", "timed_out": False}


def test_other_contributions(host, capfd) -> None:
    assert host.request("command/execute", {"name": "fixture_cmd", "arguments": ["a", "b"]}
                        ).result == {"text": "a b"}
    assert host.request("status/collect", {"surface": "status"}).result == {
        "surface": "status", "text": "fixture ready", "priority": 0}
    assert host.request("context/collect", {}).result == {"items": [
        {"label": "fixture", "content": "fixture context", "placement": "system_suffix"}]}
    assert host.request("tool/render", {"name": "echo", "arguments": {}, "result": {
        "content": [{"type": "text", "text": "echo"}]}}).result == {
        "segments": [{"text": "echo", "style_role": None}]}
    host.notify("turn/settled", {"session_id": "s", "turn_id": "t9", "outcome": "failed"})
    assert host.request("shutdown", {}).result == {}
    assert host.wait_exit() == 0
    # The observer logged the event: to the child's stderr, or to this process's fd 2.
    lines = host.stderr_lines if host.transport == "process" else capfd.readouterr().err.split("\n")
    assert any('"turn_id":"t9"' in line for line in lines)


def test_crash_mid_call_exits_without_answering(host) -> None:
    process_only(host, "a crash's exit code")  # in-process, os._exit would end the test run
    pending = host.start_tool("crash", {"code": 7})
    assert host.wait_exit() == 7
    assert not pending.event.wait(0.2)


def test_stuck_on_shutdown_is_bounded(host) -> None:
    assert host.call_tool("arm_stuck_shutdown")["content"][0]["text"] == "armed"
    started = time.monotonic()
    assert host.shutdown(deadline_ms=400).result == {}
    assert host.wait_exit(5) == 0
    assert time.monotonic() - started < 3


def test_stdin_eof_exits_zero(host) -> None:
    pending = host.start_tool("slow", {"ms": 100})
    host.close_stdin()
    assert pending.wait().result["content"][0]["text"] == "slept"
    assert host.wait_exit() == 0
