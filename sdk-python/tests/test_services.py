"""Host services through the loopback host: each helper, its gates and its local limits."""

from __future__ import annotations

import hashlib
import json

import pytest

from octet_extension import (
    Extension,
    InvalidParams,
    KVConflict,
    ProtocolError,
    RemoteError,
    SecretUnavailable,
    UnavailableError,
    log,
)
from octet_extension.testing import LoopbackHost, manifest_for


def service_ext():
    """One tool that runs whatever callable the test puts in `job`."""
    ext = Extension()
    job = {}

    @ext.tool(name="run", description="")
    def run(args, context):
        return {"content": "ok", "structured_content": {"value": job["fn"](context)}}

    ext.command(name="act", description="")(lambda a: "acted")
    return ext, job


def run(host, job, fn):
    job["fn"] = fn
    return host.call_tool("run")["structured_content"]["value"]


def expect_error(host, job, fn):
    job["fn"] = fn
    with pytest.raises(RemoteError) as err:
        host.call_tool("run")
    return err.value


# ---- notify / confirm / input --------------------------------------------------------------

def test_notify_confirm_and_input() -> None:
    ext, job = service_ext()
    with LoopbackHost(ext, confirmations=[True, False], inputs=["typed", None]) as host:
        run(host, job, lambda c: ext.notify("Ready", level="success", title="local workflow"))
        assert host.notifications("notification") == [
            {"message": "Ready", "level": "success", "title": "local workflow"}]
        answer, rid = run(host, job, lambda c: [ext.confirm("Continue?", destructive=True),
                                                c["request_id"]])
        assert answer is True
        assert run(host, job, lambda c: ext.confirm("Again?")) is False
        sent = host.requests_from_extension("confirmation/request")[0]["params"]
        assert sent["destructive"] is True and sent["parent_request_id"] == rid
        assert run(host, job, lambda c: ext.request_input("Name:")) == "typed"
        assert run(host, job, lambda c: ext.request_input("Password:", secret=True)) is None
        assert host.requests_from_extension("input/request")[1]["params"]["secret"] is True
        assert expect_error(host, job, lambda c: ext.notify("x", level="loud")).code == -32602
        assert expect_error(host, job, lambda c: ext.notify("x" * 4097)).code == -32602


@pytest.mark.parametrize("prompt,reason", [
    ("   ", "whitespace"), ("p" * 16385, "16384-byte"), (7, "must be a string")])
def test_input_prompt_bounds(prompt, reason) -> None:
    ext, job = service_ext()
    with LoopbackHost(ext) as host:
        err = expect_error(host, job, lambda c: ext.request_input(prompt))
        assert err.code == -32602 and reason in err.message
        assert host.requests_from_extension("input/request") == []


def test_oversized_input_value_is_a_protocol_error() -> None:
    ext, job = service_ext()
    with LoopbackHost(ext, inputs=["v" * 262_145]) as host:
        err = expect_error(host, job, lambda c: ext.request_input("Name:"))
        assert err.code == -32603 and "input/request result" in err.message
        assert "want at most 262144 UTF-8 bytes, got 262145" in err.message


def test_unprompted_context_and_status_contributions() -> None:
    ext, _job = service_ext()
    ext.context(lambda params: [])
    ext.status("footer")(lambda params: "x")
    with LoopbackHost(ext) as host:
        item = {"label": "l", "content": "c", "placement": "prompt_prefix"}
        ext.contribute_context([item])
        ext.contribute_status("footer", "3 files", priority=2, style_role="muted")
        assert host.notifications("context/contribution") == [{"items": [item]}]
        assert host.notifications("status/contribution") == [
            {"surface": "footer", "text": "3 files", "priority": 2, "style_role": "muted"}]
        with pytest.raises(InvalidParams, match="placement"):
            ext.contribute_context([{"label": "l", "content": "c", "placement": "middle"}])
        with pytest.raises(UnavailableError, match="'header'"):
            ext.contribute_status("header", "x")
        with pytest.raises(InvalidParams, match="1024"):
            ext.contribute_status("footer", "x" * 1025)
    plain, _job = service_ext()
    with LoopbackHost(plain), pytest.raises(UnavailableError, match="context = true"):
        plain.contribute_context([])


def test_notify_and_confirm_need_their_manifest_flags() -> None:
    ext, job = service_ext()
    m = manifest_for(ext)
    m["contributes"]["notifications"] = False
    m["contributes"]["confirmations"] = False
    with LoopbackHost(ext, manifest=m) as host:
        assert "notifications = true" in expect_error(host, job,
                                                      lambda c: ext.notify("x")).message
        assert "confirmations = true" in expect_error(host, job,
                                                      lambda c: ext.confirm("x")).message
        assert host.notifications("notification") == []


def test_services_outside_a_handler_need_an_explicit_live_parent() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.raises(UnavailableError, match="parent_request_id"):
            ext.confirm("outside")
        with pytest.raises(UnavailableError, match="not being served"):
            ext.request_input("Name:", parent_request_id=4242)
        assert host.requests_from_extension("confirmation/request") == []
    with pytest.raises(UnavailableError, match="after initialize"):
        Extension().notify("before serving")


# ---- artifacts -----------------------------------------------------------------------------

def test_publish_artifact_inline_and_by_path(scratch) -> None:
    ext, job = service_ext()
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(50))
    (scratch / "captures").mkdir()
    (scratch / "captures" / "result.png").write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    with LoopbackHost(ext, scratch_dir=scratch) as host:
        first = run(host, job, lambda c: ext.publish_artifact(mime_type="image/png", data=data))
        second = run(host, job, lambda c: ext.publish_artifact(
            mime_type="image/png", path="captures/result.png", size=len(data), sha256=digest))
        assert host.artifacts[first] == data == host.artifacts[second]
        inline, by_path = (r["params"] for r in host.requests_from_extension("artifact/publish"))
        assert inline["data"] and inline["parent_request_id"] == 2
        assert by_path["path"] == "captures/result.png" and by_path["sha256"] == digest
        # The host's verification errors propagate verbatim.
        err = expect_error(host, job, lambda c: ext.publish_artifact(
            mime_type="image/png", path="captures/result.png", size=len(data) + 1, sha256=digest))
        assert err.code == -32602 and "size mismatch" in err.message


@pytest.mark.parametrize("kwargs,reason", [
    ({"path": "/etc/passwd", "size": 1, "sha256": "0" * 64}, "absolute"),
    ({"path": "../outside.bin", "size": 1, "sha256": "0" * 64}, "climbs out"),
    ({"path": "a/../../b", "size": 1, "sha256": "0" * 64}, "climbs out"),
    ({"path": "C:\\x", "size": 1, "sha256": "0" * 64}, "absolute"),
    ({"path": "ok.bin", "size": 1, "sha256": "ABC"}, "hexadecimal"),
    ({"path": "ok.bin", "size": -1, "sha256": "0" * 64}, "outside"),
    ({"path": "ok.bin", "size": 20_971_521, "sha256": "0" * 64}, "outside"),
    ({"data": b"x" * 262_145}, "publish by path"),
    ({"data": "text"}, "must be bytes"),
    ({}, "exactly one"),
    ({"data": b"x", "path": "a"}, "exactly one"),
])
def test_publish_artifact_refuses_bad_input_locally(kwargs, reason) -> None:
    ext, job = service_ext()
    with LoopbackHost(ext) as host:
        err = expect_error(host, job, lambda c: ext.publish_artifact(mime_type="image/png",
                                                                     **kwargs))
        assert err.code == -32602 and reason in err.message
        assert host.requests_from_extension("artifact/publish") == []


def test_artifacts_need_the_feature() -> None:
    ext, job = service_ext()
    with LoopbackHost(ext, optional_features=[]) as host:
        err = expect_error(host, job, lambda c: ext.publish_artifact(mime_type="a/b", data=b""))
        assert "'artifacts'" in err.message


# ---- policy and secrets --------------------------------------------------------------------

INTENT = {"kind": "external_side_effect", "operation": "browser.submit_form"}
TOKEN = "ab" * 32


def test_policy_with_single_use_approval() -> None:
    ext, job = service_ext()

    def policy(params):
        if params.get("approval_token") == TOKEN:
            return {"decision": "allow"}
        return {"decision": "ask", "approval_token": TOKEN}

    def flow(context):
        first = ext.evaluate_policy(INTENT)
        return [first, ext.evaluate_policy(INTENT, approval_token=first["approval_token"])]

    with LoopbackHost(ext, policy=policy) as host:
        first, second = run(host, job, flow)
        assert first["decision"] == "ask" and second == {"decision": "allow"}
        retry = host.requests_from_extension("policy/evaluate")[1]["params"]
        assert retry["approval_token"] == TOKEN and retry["intent"] == INTENT
        err = expect_error(host, job, lambda c: ext.evaluate_policy(INTENT, approval_token="A1"))
        assert err.code == -32602 and err.data["path"] == "approval_token"
    with LoopbackHost(ext, policy=policy, optional_features=["policy_intents"]) as host:
        err = expect_error(host, job, lambda c: ext.evaluate_policy(INTENT, approval_token=TOKEN))
        assert "'approvals'" in err.message


def test_host_results_are_checked_against_the_schema() -> None:
    # Every host answer meets the generated validator of its result type before SDK code
    # reads it (the Go and TypeScript SDKs refuse the same answers).
    ext, job = service_ext()
    for bad, fault in [({}, "decision"), ({"decision": "allow", "extra": 1}, "extra"),
                       ({"decision": "ask", "approval_token": 7}, "approval_token")]:
        with LoopbackHost(ext, policy=lambda p, bad=bad: bad) as host:
            err = expect_error(host, job, lambda c: ext.evaluate_policy(INTENT))
            assert err.code == -32603 and "policy/evaluate result" in err.message, bad
            assert fault in err.message, bad


def test_policy_token_outside_ask_is_a_protocol_error() -> None:
    ext, job = service_ext()
    bad = {"decision": "allow", "approval_token": TOKEN}
    with LoopbackHost(ext, policy=lambda p: bad) as host:
        err = expect_error(host, job, lambda c: ext.evaluate_policy(INTENT))
        assert err.code == -32603 and "only come with 'ask'" in err.message
    with LoopbackHost(ext, policy=lambda p: {"decision": "maybe"}) as host:
        err = expect_error(host, job, lambda c: ext.evaluate_policy(INTENT))
        assert "decision: want one of allow, ask, deny" in err.message
    assert issubclass(ProtocolError, Exception)


def test_get_secret_allowlist_bounds_and_unavailable() -> None:
    ext, job = service_ext()
    secrets = {"browser.api_token": "s3cret", "big": "v" * 65_537}
    with LoopbackHost(ext, secrets=secrets, secret_names=["browser.api_token", "big", "gone"]
                      ) as host:
        assert run(host, job, lambda c: ext.get_secret("browser.api_token")) == "s3cret"
        caught = []

        def missing(context):
            try:
                ext.get_secret("gone")
            except SecretUnavailable as exc:
                caught.append(exc.code)
            return None

        run(host, job, missing)
        assert caught == [-32004]
        err = expect_error(host, job, lambda c: ext.get_secret("big"))
        assert err.code == -32603 and "at most 65536 UTF-8 bytes, got 65537" in err.message
        assert "vvvv" not in err.message
        err = expect_error(host, job, lambda c: ext.get_secret("undeclared"))
        assert err.code == -32602 and "not declared" in err.message
        err = expect_error(host, job, lambda c: ext.get_secret("9starts-with-digit"))
        assert err.code == -32602 and "letter or underscore" in err.message
        err = expect_error(host, job, lambda c: ext.get_secret("x" * 65))
        assert err.code == -32602


# ---- presentation --------------------------------------------------------------------------

def snapshot(revision, **extra):
    return {"revision": revision, "activities": [], "actions": [], **extra}


def test_presentation_is_monotonic_and_carries_the_parent() -> None:
    ext, job = service_ext()
    owner = {"session_id": "s", "extension_instance_id": "i", "process_generation": 1}
    with LoopbackHost(ext) as host:
        run(host, job, lambda c: ext.update_presentation(snapshot(0)))
        ext.presentation(snapshot(1), resource_owner=owner)
        ext.presentation(snapshot(2))
        sent = host.notifications("presentation/update")
        assert sent[0]["parent_request_id"] == 2 and "resource_owner" not in sent[0]
        assert sent[1]["resource_owner"] == owner and "parent_request_id" not in sent[1]
        assert set(sent[2]) == {"snapshot"}
        with pytest.raises(InvalidParams, match="does not increase"):
            ext.presentation(snapshot(2))
        with pytest.raises(InvalidParams, match="mutually exclusive"):
            ext.presentation(snapshot(3), resource_owner=owner, parent_request_id=1)


def test_publish_presentation_is_the_deprecated_name_of_update_presentation() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.warns(DeprecationWarning, match="use update_presentation"):
            ext.publish_presentation(snapshot(4))
        assert [n["snapshot"]["revision"] for n in host.notifications("presentation/update")] == [4]


@pytest.mark.parametrize("extra,reason", [
    ({"activities": [{"id": f"a{i}", "label": "l", "state": "running"} for i in range(129)]},
     "129 activities"),
    ({"actions": [{"id": f"x{i}", "label": "l", "command": "act"} for i in range(65)]},
     "65 actions"),
    ({"actions": [{"id": "x", "label": "l", "command": "undeclared"}]}, "not declared"),
    ({"collection": {"kind": "list", "nodes": [{"id": f"n{i}", "label": "l"}
                                               for i in range(257)]}}, "257 nodes"),
    ({"collection": {"kind": "tree", "nodes": [
        {"id": f"n{i}", "label": "l", **({"parent": f"n{i - 1}"} if i else {})}
        for i in range(17)]}}, "deeper than 16"),
    ({"status": {"state": "sleepy", "label": "l"}}, "state 'sleepy'"),
    ({"status": {"state": "active", "label": "l" * 129}}, "129 characters"),
    ({"activities": [{"id": "bad id!", "label": "l", "state": "running"}]}, "id 'bad id!'"),
    ({"collection": {"kind": "list", "nodes": [], "detail": {"text": "d" * 70_000}}},
     "65536-byte"),
    ({"status": {"state": "active", "label": "l", "detail": "d" * 300_000}}, "262144-byte"),
])
def test_presentation_limits_are_checked_locally(extra, reason) -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.raises(InvalidParams, match=reason):
            ext.presentation(snapshot(0, **extra))
        assert host.notifications("presentation/update") == []


def test_presentation_needs_the_manifest_flag_and_02() -> None:
    ext, _job = service_ext()
    m = manifest_for(ext)
    m["contributes"]["presentation"] = False
    with LoopbackHost(ext, manifest=m):
        with pytest.raises(UnavailableError, match="presentation = true"):
            ext.presentation(snapshot(0))
    with LoopbackHost(ext, api_version="0.1"), pytest.raises(UnavailableError, match=r"0\.2"):
        ext.presentation(snapshot(0))


# ---- dynamic tools -------------------------------------------------------------------------

def test_dynamic_catalog_revisions_retire_after_eight() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        assert ext.tool_catalog_revision == 0
        for i in range(1, 10):
            update = ext.register_tool(name="dyn", description=f"v{i}",
                                       handler=lambda a, i=i: f"version {i}")
            assert update["revision"] == i and ext.tool_catalog_revision == i
        # Pinned calls reach the handler the model saw; current calls the newest.
        assert host.call_tool("dyn", catalog_revision=5)["content"][0]["text"] == "version 5"
        assert host.call_tool("dyn")["content"][0]["text"] == "version 9"
        for revision, word in ((1, "retired"), (0, "retired"), (10, "unknown")):
            with pytest.raises(RemoteError) as err:
                host.call_tool("dyn", catalog_revision=revision)
            assert err.value.code == -32602
            assert f"catalog revision {revision} is {word}" in err.value.message
        update = ext.unregister_tools("dyn", "absent")
        assert update["revision"] == 10 and "dyn" not in update["tools"]
        with pytest.raises(RemoteError, match='unknown tool "dyn"'):
            host.call_tool("dyn")
        assert host.call_tool("dyn", catalog_revision=9)["content"][0]["text"] == "version 9"


def test_rejected_or_skipped_acks_leave_the_catalog_unchanged() -> None:
    ext, _job = service_ext()
    answers = iter([
        RemoteError(-32602, "conflict"),
        {"revision": 5, "tools": ["dyn"]},
    ])

    def register(params):
        answer = next(answers)
        if isinstance(answer, RemoteError):
            from octet_extension.testing import HostError
            raise HostError(answer.code, answer.message)
        return answer

    with LoopbackHost(ext, services={"tools/register": register}) as host:
        with pytest.raises(RemoteError, match="conflict"):
            ext.register_tool(name="dyn", description="", handler=lambda a: "x")
        assert ext.tool_catalog_revision == 0
        with pytest.raises(ProtocolError, match="revision 5, expected 1"):
            ext.register_tool(name="dyn", description="", handler=lambda a: "x")
        assert ext.tool_catalog_revision == 0
        with pytest.raises(RemoteError, match="unknown tool"):
            host.call_tool("dyn")


def test_staged_catalog_is_addressable_before_the_ack() -> None:
    ext, _job = service_ext()
    seen = []

    def register(params):
        # The host publishes before acknowledging: a call pinned to revision 1 arrives first.
        pending = host.start_tool("dyn", catalog_revision=1)
        seen.append(pending)
        return {"revision": 1, "tools": ["dyn"]}

    with LoopbackHost(ext, services={"tools/register": register}) as host:
        ext.register_tool(name="dyn", description="", handler=lambda a: "staged")
        assert seen[0].wait().result["content"][0]["text"] == "staged"


@pytest.mark.parametrize("call,reason", [
    (lambda e: e.register_tools([]), "1..256"),
    (lambda e: e.register_tools([{"name": f"t{i}", "description": "", "handler": print}
                                 for i in range(257)]), "1..256"),
    (lambda e: e.register_tools([{"name": "a", "description": "", "handler": print}] * 2),
     "twice"),
    (lambda e: e.register_tools([{"name": "a b", "description": "", "handler": print}]),
     "tool name"),
    (lambda e: e.register_tools([{"name": "a", "handler": print, "color": 1}]), "unknown keys"),
    (lambda e: e.register_tools([{"name": "a", "description": "", "handler": 3}]), "callable"),
    (lambda e: e.unregister_tools(), "1..256"),
])
def test_dynamic_tool_input_is_checked(call, reason) -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.raises(InvalidParams, match=reason):
            call(ext)
        assert host.requests_from_extension("tools/register") == []


def test_catalog_cap_of_256() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        ext.register_tools([{"name": f"t{i}", "description": "", "handler": print}
                            for i in range(254)])  # + the bootstrap "run" = 255
        with pytest.raises(InvalidParams, match="257 tools"):
            ext.register_tools([{"name": f"u{i}", "description": "", "handler": print}
                                for i in range(2)])
        assert ext.tool_catalog_revision == 1 and host.catalog_revision == 1


def test_dynamic_tools_need_the_feature() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext, optional_features=[]):
        with pytest.raises(UnavailableError, match="dynamic_tools"):
            ext.register_tool(name="x", description="", handler=print)


# ---- child sessions ------------------------------------------------------------------------

SPAWN = dict(task_name="inspect", message="look", idempotency_key="k1", tools=["read"],
             max_depth=1, max_concurrent_children=1, max_turns=1, max_cost_microdollars=0,
             max_output_bytes=10, timeout_ms=1000)


def test_agent_helpers_round_trip() -> None:
    ext, job = service_ext()

    def flow(context):
        child = ext.spawn_agent(**SPAWN, profile="review", fingerprint="0" * 64,
                                model_selection={"provider": "test"})
        again = ext.spawn_agent(**SPAWN)
        return [child, again, ext.send_agent_message(child["agent_id"], "more"),
                ext.follow_up_agent(child["agent_id"], "again"),
                ext.list_agent_models(query="m", limit=2), ext.wait_agents(timeout_ms=10),
                ext.list_agents(), ext.interrupt_agent(child["agent_id"])]

    with LoopbackHost(ext) as host:
        child, again, msg, follow, models, waited, listed, stopped = run(host, job, flow)
        assert child["created"] is True and again == {**child, "created": False}
        assert msg == follow == {"accepted": True}
        assert len(models["models"]) == 2 and waited["timed_out"] is False
        assert listed["agents"][0]["state"] == "settled" and stopped == {"interrupted": True}
        spawn = host.requests_from_extension("agent/spawn")[0]["params"]
        assert spawn["policy"] == {"tools": ["read"], "max_depth": 1,
                                   "max_concurrent_children": 1, "max_turns": 1,
                                   "max_tokens": None, "max_cost_microdollars": 0,
                                   "max_output_bytes": 10, "timeout_ms": 1000}
        assert spawn["parent_request_id"] == 2 and spawn["profile"] == "review"
        err = expect_error(host, job, lambda c: ext.interrupt_agent("agent-99"))
        assert err.code == -32002


@pytest.mark.parametrize("change,field", [
    ({"task_name": "Upper"}, "task_name"), ({"task_name": "x" * 49}, "task_name"),
    ({"profile": "bad profile"}, "profile"), ({"fingerprint": "ABC"}, "fingerprint"),
    ({"tools": []}, "tools"), ({"tools": ["read", "read"]}, "tools"),
    ({"tools": ["fly"]}, "tools"), ({"max_depth": 2}, "max_depth"),
    ({"max_concurrent_children": 9}, "max_concurrent_children"),
    ({"max_tokens": 999}, "max_tokens"), ({"max_tokens": 64_001}, "max_tokens"),
    ({"message": ""}, "message"), ({"message": "m" * 131_073}, "message"),
    ({"max_turns": True}, "max_turns"), ({"idempotency_key": "k" * 257}, "idempotency_key"),
])
def test_spawn_bounds_are_checked_locally(change, field) -> None:
    ext, job = service_ext()
    with LoopbackHost(ext) as host:
        err = expect_error(host, job, lambda c: ext.spawn_agent(**{**SPAWN, **change}))
        assert err.code == -32602 and err.data["path"] == field
        with pytest.raises(InvalidParams):
            ext.wait_agents(timeout_ms=60_001, parent_request_id=1)
        assert host.requests_from_extension("agent/spawn") == []


def test_agents_need_the_feature_and_a_parent() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext, optional_features=[]):
        with pytest.raises(UnavailableError, match="agent_sessions"):
            ext.list_agents()
    with LoopbackHost(ext), pytest.raises(UnavailableError, match="parent"):
        ext.list_agents()


# ---- kv ------------------------------------------------------------------------------------

def test_kv_get_put_list_commit_conflict() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext):
        assert ext.kv.get("missing") is None
        version = ext.kv.put("a", {"n": 1}, expect_absent=True)
        entry = ext.kv.get("a")
        assert entry.value == {"n": 1} and entry.version == version
        assert entry.namespace == "test-extension"
        with pytest.raises(KVConflict) as err:
            ext.kv.put("a", 2, expect_absent=True)
        assert err.value.code == -32005 and err.value.key == "a"
        assert ext.kv.get("a").value == {"n": 1}  # nothing applied
        with ext.kv.transaction() as tx:
            tx.expect("a", version)
            tx.put("a", 2)
            tx.put("b", 3)
            tx.delete("zzz")
        assert tx.versions[2] is None and ext.kv.get("a").value == 2
        for i in range(5):
            ext.kv.put(f"p/{i}", i, namespace="test-extension.sub")
        page = ext.kv.list("p/", namespace="test-extension.sub", limit=2)
        assert [e.key for e in page.entries] == ["p/0", "p/1"] and page.next_cursor
        assert [e.value for e in ext.kv.scan("p/", namespace="test-extension.sub",
                                             page_size=2)] == [0, 1, 2, 3, 4]
        ext.kv.delete("b")
        assert ext.kv.get("b") is None
        with pytest.raises(RemoteError) as foreign:
            ext.kv.get("x", namespace="someone-else")
        assert foreign.value.code == -32602
        raw = ext.kv.commit([{"op": "put", "namespace": "test-extension", "key": "r",
                              "value": None}])
        assert raw["versions"][0]["key"] == "r"


@pytest.mark.parametrize("call,reason", [
    (lambda kv: kv.get("k" * 513), "512-byte"),
    (lambda kv: kv.get(""), "empty"),
    (lambda kv: kv.put("k", "v" * 262_145), "262144-byte"),
    (lambda kv: kv.put("k", {1, 2}), "not JSON"),
    (lambda kv: kv.commit([]), "1..256 writes"),
    (lambda kv: kv.commit([{"op": "delete", "namespace": "n", "key": "k"}] * 257),
     "1..256 writes"),
    (lambda kv: kv.list(limit=1001), "outside"),
])
def test_kv_bounds_are_checked_locally(call, reason) -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.raises(InvalidParams, match=reason):
            call(ext.kv)
        assert not any(m.get("method", "").startswith("kv.") for _, m in host.frames)


def test_kv_needs_api_04() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext, api_version="0.2"), pytest.raises(UnavailableError, match="'kv'"):
        ext.kv.get("a")


# ---- logs ----------------------------------------------------------------------------------

def test_structured_logs_go_to_stderr(capfd) -> None:
    ext = Extension()
    ext.log.info("turn settled", turn_id="t1", outcome="completed")
    ext.log.bind(component="x").warning("careful", n=1)
    log.error("plain")
    try:
        raise ValueError("inner")
    except ValueError:
        ext.log.exception("failed")
    out, err = capfd.readouterr()
    assert out == ""
    records = [json.loads(line) for line in err.splitlines()]
    assert records[0]["msg"] == "turn settled" and records[0]["level"] == "info"
    assert records[0]["turn_id"] == "t1" and records[0]["ts"].endswith("Z")
    assert records[1] == {**records[1], "component": "x", "level": "warning", "n": 1}
    assert records[2]["level"] == "error"
    assert "ValueError: inner" in records[3]["traceback"]


def test_replace_tools_is_one_revision_or_nothing() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        ext.register_tools([{"name": "a", "description": "", "handler": lambda a: "a"},
                            {"name": "b", "description": "", "handler": lambda a: "b"}])
        before = ext.tool_catalog_revision
        update = ext.replace_tools([{"name": "b", "description": "", "handler": lambda a: "b2"},
                                    {"name": "c", "description": "", "handler": lambda a: "c"}])
        assert update["revision"] == before + 1 == ext.tool_catalog_revision
        assert sorted(update["tools"]) == ["b", "c"]
        assert host.call_tool("b")["content"][0]["text"] == "b2"
        with pytest.raises(RemoteError, match='unknown tool "a"'):
            host.call_tool("a")
        # Refused locally before anything is sent: nothing changes.
        with pytest.raises(InvalidParams, match="appears twice"):
            ext.replace_tools([{"name": "d", "description": "", "handler": print}] * 2)
        with pytest.raises(InvalidParams, match="256"):
            ext.replace_tools([{"name": f"t{i}", "description": "", "handler": print}
                               for i in range(257)])
        assert ext.tool_catalog_revision == before + 1
        assert ext.replace_tools([])["tools"] == []


def test_replace_tools_refused_by_the_host_changes_nothing() -> None:
    ext, _job = service_ext()

    def refuse(params: dict[str, object]) -> object:
        from octet_extension.testing import HostError
        raise HostError(-32602, "catalog revision 1 refused: tool c is provided by another")

    with LoopbackHost(ext, services={"tools/replace": refuse}) as host:
        with pytest.raises(RemoteError, match="refused"):
            ext.replace_tools([{"name": "c", "description": "", "handler": lambda a: "c"}])
        assert ext.tool_catalog_revision == 0
        with pytest.raises(RemoteError, match='unknown tool "c"'):
            host.call_tool("c")
