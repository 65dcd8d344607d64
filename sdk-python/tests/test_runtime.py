"""Runtime model: cancellation races, admission, shutdown/EOF drains, bad frames, progress."""

from __future__ import annotations

import threading
import time

import pytest

from octet_extension import Cancelled, Extension, current_cancellation
from octet_extension.testing import NO_REPLY, LoopbackHost


def blocking_ext(**kwargs) -> tuple[Extension, threading.Event, threading.Event]:
    """A tool that signals `entered` then waits for `release` or cancellation."""
    ext = Extension(**kwargs)
    entered, release = threading.Event(), threading.Event()

    @ext.tool(name="block", description="")
    def block(args):
        entered.set()
        token = current_cancellation()
        while not release.is_set():
            if args.get("cooperative", True) and token.wait(0.01):
                raise Cancelled()
            release.wait(0.01)
        return "released"

    @ext.tool(name="quick", description="")
    def quick(args):
        return "quick"

    return ext, entered, release


def test_cooperative_cancellation_answers_32800() -> None:
    ext, entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        pending = host.start_tool("block")
        assert entered.wait(5)
        host.cancel(pending.id)
        assert pending.wait().error == {"code": -32800, "message": "request cancelled"}
        host.cancel(pending.id)  # idempotent: finished ids are ignored
        host.cancel(12345)       # unknown ids are ignored
        assert host.call_tool("quick")["content"][0]["text"] == "quick"


def test_result_that_already_won_is_the_only_answer() -> None:
    ext, entered, release = blocking_ext()
    with LoopbackHost(ext) as host:
        pending = host.start_tool("block", {"cooperative": False})
        assert entered.wait(5)
        host.cancel(pending.id)  # the handler ignores it ...
        release.set()            # ... and returns normally: the result wins
        assert pending.wait().result["content"][0]["text"] == "released"
        host.call_tool("quick")
        answers = [m for d, m in host.frames if d == "out" and m.get("id") == pending.id]
        assert len(answers) == 1


def test_cancelling_a_queued_request_never_runs_it() -> None:
    ext, entered, release = blocking_ext(max_concurrent_requests=1)
    ran = []
    ext.tool(name="record", description="")(lambda a: ran.append(1) or "ran")
    with LoopbackHost(ext) as host:
        first = host.start_tool("block", {"cooperative": False})
        assert entered.wait(5)
        queued = host.start_tool("record")
        host.cancel(queued.id)
        assert queued.wait().error["code"] == -32800
        release.set()
        assert first.wait().result is not None
        assert ran == []


def test_full_admission_queue_answers_overloaded() -> None:
    ext, entered, release = blocking_ext(max_concurrent_requests=1, max_pending_requests=2)
    with LoopbackHost(ext) as host:
        running = host.start_tool("block", {"cooperative": False})
        assert entered.wait(5)
        queued = [host.start_tool("quick") for _ in range(2)]
        refused = host.start_tool("quick").wait()
        assert refused.error == {"code": -32001, "data": {"limit": 3},
                                 "message": "3 requests already in flight or queued"}
        release.set()
        assert running.wait().result and all(q.wait().result for q in queued)


def test_duplicate_in_flight_id_is_refused() -> None:
    ext, entered, release = blocking_ext()
    with LoopbackHost(ext) as host:
        first = host.start_request("tool/call", {"name": "block", "arguments": {}}, rid=500)
        assert entered.wait(5)
        host.send_raw(b'{"jsonrpc":"2.0","id":500,"method":"tool/call","params":'
                      b'{"name":"quick","arguments":{}}}\n')
        dup = host.wait_for(lambda m: m.get("id") == 500 and "error" in m)
        assert dup["error"]["code"] == -32600 and "500" in dup["error"]["message"]
        release.set()
        assert first.event.wait(5)


def test_shutdown_drains_then_acknowledges_and_refuses_new_work() -> None:
    ext, entered, release = blocking_ext()
    hooks = []
    ext.on_shutdown(lambda: hooks.append("ran"))
    with LoopbackHost(ext) as host:
        running = host.start_tool("block", {"cooperative": False})
        assert entered.wait(5)
        ack = host.start_request("shutdown", {"reason": "reload", "deadline_ms": 4000})
        refused = host.start_tool("quick").wait()
        assert refused.error["code"] == -32003
        release.set()
        assert running.wait().result["content"][0]["text"] == "released"
        assert ack.wait().result == {}
        assert hooks == ["ran"]
        assert host.wait_exit() == 0
        # the ack is the last frame: after the drained result and after on_shutdown
        assert host.frames[-1][1].get("id") == ack.id


def test_shutdown_cancels_what_does_not_drain_in_time() -> None:
    ext, entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        running = host.start_tool("block")  # cooperative
        assert entered.wait(5)
        ack = host.start_request("shutdown", {"deadline_ms": 300})
        assert running.wait().error["code"] == -32800
        assert ack.wait().result == {}
        assert host.wait_exit() == 0


def test_stuck_handler_and_stuck_on_shutdown_stay_bounded() -> None:
    ext, entered, release = blocking_ext()
    forever = threading.Event()
    ext.on_shutdown(forever.wait)
    with LoopbackHost(ext) as host:
        stuck = host.start_tool("block", {"cooperative": False})
        assert entered.wait(5)
        ack = host.start_request("shutdown", {"deadline_ms": 300})
        # The handler ignores cancellation: the SDK answers for it at the deadline.
        answer = stuck.wait(3)
        assert answer.error["code"] == -32800 and "deadline" in answer.error["message"]
        assert ack.wait(3).result == {}
        assert host.wait_exit(3) == 0
        release.set()
        forever.set()


def test_eof_during_drain_finishes_in_flight_work_then_exits() -> None:
    ext, entered, release = blocking_ext()
    closed = []
    ext.on_shutdown(lambda: closed.append(True))
    with LoopbackHost(ext) as host:
        running = host.start_tool("block", {"cooperative": False})
        assert entered.wait(5)
        host.close_stdin()
        # Release the call only once the EOF has started the drain (not after a fixed
        # 50 ms, which could release it first and leave the drain untested).
        deadline = time.monotonic() + 10
        while not ext._session.closing:
            assert time.monotonic() < deadline, "EOF never started the drain"
            time.sleep(0.001)  # polling an observable state, not waiting for a guess
        assert running.event.wait(0) is False  # still in flight during the drain
        release.set()
        assert running.wait().result["content"][0]["text"] == "released"
        assert host.wait_exit() == 0
        assert closed == [True]


def test_eof_after_admitted_shutdown_waits_for_the_ack() -> None:
    ext, _entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        ack = host.start_request("shutdown", {})
        host.close_stdin()
        assert ack.wait().result == {}
        assert host.wait_exit() == 0


@pytest.mark.parametrize("raw,code,reason", [
    (b"{not json\n", -32700, "invalid JSON"),
    (b'{"jsonrpc":"2.0","method":"\xff"}\n', -32700, "utf-8"),
    # Invalid UTF-8 in a result is refused, never replaced with U+FFFD (as in Go and TS).
    (b'{"jsonrpc":"2.0","id":1,"result":{"text":"a\xffb"}}\n', -32700, "utf-8"),
    (b'{"jsonrpc":"2.0","method":"x","params":{"v":NaN}}\n', -32700, "NaN is not JSON"),
    (b'{"jsonrpc":"2.0","result":{"v":["\\ud800"]},"id":1}\n', -32700, "surrogate"),
    (b"[1,2]\n", -32600, "batch"),
    (b'"hello"\n', -32600, "not an object"),
    (b'{"jsonrpc":"2.0","id":-4,"method":"x"}\n', -32600, "id -4 is invalid"),
])
def test_malformed_frames_close_the_connection(raw, code, reason, capfd) -> None:
    ext, _entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        host.send_raw(raw)
        assert host.wait_exit() == 1
    err = capfd.readouterr().err
    assert f'"code":{code}' in err and reason in err


@pytest.mark.parametrize("raw,reason", [
    (b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\n", "invalid JSON"),
    (b"\n", "invalid JSON"),
    (b"\r\n", "invalid JSON"),
])
def test_bom_and_blank_lines_are_framing_faults(raw, reason, capfd) -> None:
    ext, _entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        host.send_raw(raw)
        assert host.wait_exit() == 1
    assert reason in capfd.readouterr().err


def test_eof_inside_a_frame_is_a_framing_fault_never_served(capfd) -> None:
    # A whole request without its newline: the host died before writing it out.
    ext, _entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        host.send_raw(b'{"jsonrpc":"2.0","id":9,"method":"tool/call","params":{"name":"quick"}}')
        host.close_stdin()
        assert host.wait_exit() == 1
        assert not [m for d, m in host.frames if d == "out" and m.get("id") == 9]
    assert "stream ended inside a frame" in capfd.readouterr().err


def test_crlf_line_ends_are_served() -> None:
    ext, _entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        host.send_raw(b'{"jsonrpc":"2.0","id":300,"method":"tool/call","params":{"name":"quick"}}\r\n')
        host.call_tool("quick")
        answers = [m for d, m in host.frames if d == "out" and m.get("id") == 300]
        assert answers and answers[0]["result"]["content"][0]["text"] == "quick"


def typed_ext() -> Extension:
    ext = Extension()

    schema = {"type": "object",
              "properties": {"count": {"type": "integer"}, "label": {"type": "string"}}}

    @ext.tool(name="typed", description="", parameters=schema)
    def typed(args):
        return f"{args.get('label')}:{args.get('count')}"

    return ext


@pytest.mark.parametrize("params,code,reason", [
    (b'{"name":"typed","arguments":{"count":1,"count":2}}', -32602, "duplicate key 'count'"),
    (b'{"name":"typed","name":"typed","arguments":{}}', -32602, "duplicate key 'name'"),
    (b'{"name":"typed","arguments":{"label":"\\ud800"}}', -32602, "surrogate"),
    (b'{"name":"typed","arguments":{"count":' + b"9" * 400 + b'}}', -32602, "64-bit float"),
    # The frame's 129th level (envelope, params, arguments, then 126 arrays) is past
    # MAX_JSON_DEPTH; 200,000 levels are refused alike, without decoding the nesting.
    (b'{"name":"typed","arguments":{"v":' + b"[" * 126 + b"]" * 126 + b'}}', -32602,
     "nesting deeper than 128 levels (MAX_JSON_DEPTH) at byte 213"),
    (b'{"name":"typed","arguments":{"v":' + b"[" * 200_000 + b"]" * 200_000 + b'}}', -32602,
     "nesting deeper than 128 levels (MAX_JSON_DEPTH) at byte 213"),
])
def test_rule_breaking_requests_are_answered_and_the_stream_goes_on(params, code, reason) -> None:
    # JSON that breaks a wire rule is the request's fault, not the stream's: answered as the
    # Go and TypeScript SDKs answer it (conformance check rpc.strict_json).
    with LoopbackHost(typed_ext()) as host:
        host.send_raw(b'{"jsonrpc":"2.0","id":77,"method":"tool/call","params":' + params + b"}\n")
        answer = host.wait_for(lambda m: m.get("id") == 77)
        assert answer["error"]["code"] == code and reason in answer["error"]["message"]
        assert host.call_tool("typed", {"count": 3, "label": "ok"})["content"][0]["text"] == "ok:3"


@pytest.mark.parametrize("count", [b"7.0", b"7e0", b"70E-1"])
def test_an_integral_number_is_an_integer_and_reaches_the_handler_as_int(count) -> None:
    # Draft 2020-12, not the wire rule: an author's integer parameter takes 7.0, and the
    # handler receives int 7 (as Go's int field and TypeScript's number do); 7.5 stays refused.
    seen = []
    ext = Extension()

    @ext.tool(name="typed", description="",
              parameters={"type": "object", "properties": {"count": {"type": "integer"}}})
    def typed(args):
        seen.append(args["count"])
        return str(args["count"])

    with LoopbackHost(ext) as host:
        host.send_raw(b'{"jsonrpc":"2.0","id":8,"method":"tool/call","params":{"name":"typed",'
                      b'"arguments":{"count":' + count + b"}}}\n")
        answer = host.wait_for(lambda m: m.get("id") == 8)
        assert answer["result"]["content"][0]["text"] == "7"
        host.send_raw(b'{"jsonrpc":"2.0","id":9,"method":"tool/call","params":{"name":"typed",'
                      b'"arguments":{"count":7.5}}}\n')
        refused = host.wait_for(lambda m: m.get("id") == 9)
    assert seen == [7] and type(seen[0]) is int
    assert refused["error"]["message"] == "invalid arguments: /count: want type integer, got number"


def test_a_repeated_envelope_key_is_an_invalid_request() -> None:
    with LoopbackHost(typed_ext()) as host:
        host.send_raw(b'{"jsonrpc":"2.0","id":5,"method":"tool/call","method":"tool/call",'
                      b'"params":{"name":"typed","arguments":{}}}\n')
        answer = host.wait_for(lambda m: m.get("id") == 5)
        assert answer["error"]["code"] == -32600
        assert host.call_tool("typed", {"count": 1, "label": "a"})["content"][0]["text"] == "a:1"


@pytest.mark.parametrize("raw", [
    b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1,"id":2}}\n',
    b'{"jsonrpc":"2.0","method":"x","params":{"v":' + b"[" * 5000 + b"]" * 5000 + b'}}\n',
])
def test_a_rule_breaking_notification_is_dropped(raw, capfd) -> None:
    with LoopbackHost(typed_ext()) as host:
        host.send_raw(raw)
        assert host.call_tool("typed", {"count": 2, "label": "b"})["content"][0]["text"] == "b:2"
    assert "dropped a malformed notification" in capfd.readouterr().err


def test_oversized_frame_closes_the_connection(capfd) -> None:
    ext, _entered, _release = blocking_ext()
    host = LoopbackHost(ext, initialize=False)
    with host:
        big = b'{"jsonrpc":"2.0","method":"x","params":{"p":"' + b"y" * 1_048_600 + b'"}}\n'
        threading.Thread(target=host.send_raw, args=(big,), daemon=True).start()
        assert host.wait_exit() == 1
    assert "longer than 1048576 bytes" in capfd.readouterr().err


def test_transport_loss_fails_waiting_host_calls() -> None:
    ext = Extension()
    outcome = []

    @ext.tool(name="ask", description="")
    def ask(args):
        try:
            ext.ui.confirm("never answered")
        except Exception as exc:
            outcome.append(type(exc).__name__)
            raise
        return "unreachable"

    with LoopbackHost(ext, services={"confirmation/request": lambda p: NO_REPLY}) as host:
        host.start_tool("ask")
        host.wait_for(lambda m: m.get("method") == "confirmation/request")
        host.close_stdin()
        assert host.wait_exit() == 0
    assert outcome == ["ProtocolError"]


def test_cancellation_reaches_a_waiting_host_call_and_cancels_it_upstream() -> None:
    ext = Extension()

    @ext.tool(name="ask", description="")
    def ask(args):
        ext.ui.confirm("slow user")
        return "unreachable"

    with LoopbackHost(ext, services={"confirmation/request": lambda p: NO_REPLY}) as host:
        pending = host.start_tool("ask")
        sent = host.wait_for(lambda m: m.get("method") == "confirmation/request")
        assert sent["id"].startswith("py:")
        assert sent["params"]["parent_request_id"] == pending.id
        host.cancel(pending.id)
        assert pending.wait().error["code"] == -32800
        upstream = host.wait_for(lambda m: m.get("method") == "$/cancelRequest")
        assert upstream["params"] == {"id": sent["id"]}


def test_api_01_uses_numeric_ids_one_worker_and_no_parent() -> None:
    ext = Extension()
    seen = []
    ext.tool(name="c", description="")(lambda a: str(ext.ui.confirm("ok?")["confirmed"]))
    ext.tool(name="w", description="")(lambda a: seen.append(threading.current_thread().name)
                                       or "w")
    with LoopbackHost(ext, api_version="0.1", confirmations=[True]) as host:
        assert host.call_tool("c") == {"content": "True"}
        request = host.requests_from_extension("confirmation/request")[0]
        assert isinstance(request["id"], int)
        assert "parent_request_id" not in request["params"]
        for _ in range(3):
            host.call_tool("w")
        assert set(seen) == {"octet-worker-0"}


def test_progress_sequences_start_at_one_per_request() -> None:
    ext = Extension()

    @ext.tool(name="p", description="")
    def p(args):
        for i in range(3):
            ext.progress.report({"type": "status", "message": f"step {i + 1}",
                                 "current": i + 1, "total": 3})
        ext.progress.output("stderr", "x", encoding="utf8")
        return "done"

    with LoopbackHost(ext) as host:
        first = host.start_tool("p").wait()
        second = host.start_tool("p").wait()
        for response in (first, second):
            events = [n for n in host.notifications("$/progress")
                      if n["parent_request_id"] == response["id"]]
            assert [e["sequence"] for e in events] == [1, 2, 3, 4]
            assert events[0]["event"] == {"type": "status", "message": "step 1", "current": 1,
                                          "total": 3}
            assert events[3]["event"]["type"] == "output"


def test_progress_requires_feature_and_parent() -> None:
    ext = Extension()
    ext.tool(name="p", description="")(
        lambda a: ext.progress.report({"type": "status", "message": "x"}) or "ok")
    with LoopbackHost(ext, optional_features=[]) as host:
        response = host.request("tool/call", {"name": "p", "arguments": {}})
        assert response.error["code"] == -32603
        assert "request_progress" in response.error["message"]
    with LoopbackHost(ext) as host:
        with pytest.raises(Exception, match="active handler"):
            ext.progress.report({"type": "status", "message": "outside"})
        with pytest.raises(Exception, match="not being served"):
            ext.progress.report({"type": "status", "message": "x"}, parent_request_id=999)


def test_lifecycle_notifications_reach_handlers_off_the_reader() -> None:
    ext = Extension()
    got = []
    done = threading.Event()

    @ext.on_lifecycle("turn/settled")
    def settled(event):
        got.append((event, threading.current_thread().name))
        done.set()

    with LoopbackHost(ext) as host:
        host.notify("turn/started", {"session_id": "s", "turn_id": "t"})  # not subscribed
        host.notify("turn/settled", {"session_id": "s", "turn_id": "t", "outcome": "completed"})
        assert done.wait(5)
    assert got[0][0]["outcome"] == "completed"
    assert got[0][1].startswith("octet-worker")


def test_lifecycle_observations_run_one_at_a_time_in_arrival_order() -> None:
    # A slow observer of the first event must not be overtaken on another worker: a
    # reference count (lifecycle-counting) would see turn/settled before turn/started.
    ext = Extension()
    entered, release, done = threading.Event(), threading.Event(), threading.Event()
    seen = []

    @ext.on_lifecycle("turn_started")
    def started(event):
        if event["turn_id"] == "1":
            entered.set()
            assert release.wait(5)
        seen.append(("started", event["turn_id"]))

    @ext.on_lifecycle("turn_settled")
    def settled(event):
        seen.append(("settled", event["turn_id"]))
        done.set()

    with LoopbackHost(ext) as host:
        host.notify("turn/started", {"session_id": "s", "turn_id": "1"})
        host.notify("turn/started", {"session_id": "s", "turn_id": "2"})
        host.notify("turn/settled", {"session_id": "s", "turn_id": "1", "outcome": "completed"})
        assert entered.wait(5)
        host.sync()  # the later events have reached the extension while the first is held
        release.set()
        assert done.wait(5)
    assert seen == [("started", "1"), ("started", "2"), ("settled", "1")]


def test_stdout_is_protected_at_the_fd_level(tmp_path) -> None:
    import subprocess
    import sys
    script = tmp_path / "probe.py"
    script.write_text(
        "import os, sys\n"
        "from octet_extension._transport import protect_stdio\n"
        "i, o = protect_stdio()\n"
        "print('stray print')\n"
        "os.system('echo stray child')\n"
        "os.write(o, b'PROTOCOL\\n')\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=20)
    assert proc.stdout == b"PROTOCOL\n"
    assert b"stray print" in proc.stderr and b"stray child" in proc.stderr


def test_shutdown_waits_for_queued_lifecycle_observations() -> None:
    ext = Extension()
    go, seen = threading.Event(), []

    @ext.on_lifecycle("turn_settled")
    def settled(event):
        go.wait(5)
        seen.append(event["turn_id"])

    with LoopbackHost(ext) as host:
        host.notify("turn/settled", {"session_id": "s", "turn_id": "t1", "outcome": "completed"})
        ack = host.start_request("shutdown", {"deadline_ms": 3000})
        assert not ack.event.wait(0.1)  # still observing: no acknowledgement yet
        go.set()
        assert ack.wait().result == {}
        assert seen == ["t1"]


def test_a_malformed_id_in_a_cancellation_is_ignored() -> None:
    ext, _entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        host.send_raw(b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{"x":1}}}\n')
        assert host.call_tool("quick")["content"][0]["text"] == "quick"


@pytest.mark.parametrize("rid", [b"[1]", b"7", b'"py:7"', b'"go:1"', b'"py:01"'])
def test_a_response_to_an_id_never_issued_closes_the_connection(rid, capfd) -> None:
    # As the Go and TypeScript SDKs and the host judge it (wire.md §1): not a late reply, so
    # the host is confused about what it answers; the caller learns it at once.
    ext, _entered, _release = blocking_ext()
    with LoopbackHost(ext) as host:
        host.send_raw(b'{"jsonrpc":"2.0","id":' + rid + b',"result":{}}\n')
        assert host.wait_exit() == 1
    err = capfd.readouterr().err
    assert '"code":-32600' in err and "which this side never issued" in err


def test_shutdown_before_initialize_is_acknowledged() -> None:
    ext, _entered, _release = blocking_ext()
    with LoopbackHost(ext, initialize=False) as host:
        assert host.shutdown().result == {}
        assert host.wait_exit() == 0


def test_surrogate_pairs_are_fine() -> None:
    ext = Extension()
    ext.tool(name="echo", description="")(lambda a: a["v"])
    with LoopbackHost(ext) as host:
        host.send_raw(b'{"jsonrpc":"2.0","id":9,"method":"tool/call","params":'
                      b'{"name":"echo","arguments":{"v":"\\ud83d\\ude00"}}}\n')
        answer = host.wait_for(lambda m: m.get("id") == 9)
        assert answer["result"]["content"][0]["text"] == "\U0001F600"


def test_drain_uses_the_budget_minus_a_small_reserve() -> None:
    # deadline 1000 ms: work may drain until 800 ms; a handler that needs ~600 ms finishes.
    ext, entered, release = blocking_ext()
    with LoopbackHost(ext) as host:
        running = host.start_tool("block", {"cooperative": False})
        assert entered.wait(5)
        ack = host.start_request("shutdown", {"deadline_ms": 1000})
        threading.Timer(0.6, release.set).start()
        assert running.wait().result["content"][0]["text"] == "released"
        assert ack.wait().result == {}
