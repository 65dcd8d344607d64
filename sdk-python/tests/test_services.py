"""Host services through the loopback host: each helper, its gates and its local limits."""

from __future__ import annotations

import base64
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


# ---- ui: notify / confirm / input / contributions --------------------------------------------

def test_notify_confirm_and_input() -> None:
    ext, job = service_ext()
    with LoopbackHost(ext, confirmations=[True, False], inputs=["typed", None]) as host:
        run(host, job, lambda c: ext.ui.notify("Ready", level="success", title="local workflow"))
        run(host, job, lambda c: ext.ui.notify("Plain"))
        assert host.notifications("notification") == [
            {"message": "Ready", "level": "success", "title": "local workflow"},
            {"message": "Plain", "level": "info"}]
        answer, rid = run(host, job, lambda c: [
            ext.ui.confirm("Continue?", destructive=True)["confirmed"], c["request_id"]])
        assert answer is True
        assert run(host, job, lambda c: ext.ui.confirm("Again?")) == {"confirmed": False}
        sent = host.requests_from_extension("confirmation/request")[0]["params"]
        assert sent["destructive"] is True and sent["parent_request_id"] == rid
        assert run(host, job, lambda c: ext.ui.request_input("Name:")) == {"value": "typed"}
        assert run(host, job, lambda c: ext.ui.request_input("Password:", secret=True)) == {
            "value": None}
        assert host.requests_from_extension("input/request")[1]["params"]["secret"] is True
        # The generated validator refuses what the schema refuses, before anything is sent.
        err = expect_error(host, job, lambda c: ext.ui.notify("x", level="loud"))
        assert err.code == -32602 and err.data["path"] == "level"
        err = expect_error(host, job, lambda c: ext.ui.notify("x" * 4097))
        assert err.code == -32602 and err.data["path"] == "message"
        assert len(host.notifications("notification")) == 2


@pytest.mark.parametrize("prompt,reason", [
    ("   ", "does not match"), ("p" * 16385, "16384"), (7, "string")])
def test_input_prompt_bounds(prompt, reason) -> None:
    ext, job = service_ext()
    with LoopbackHost(ext) as host:
        err = expect_error(host, job, lambda c: ext.ui.request_input(prompt))
        assert err.code == -32602 and reason in err.message and err.data["path"] == "prompt"
        assert host.requests_from_extension("input/request") == []


def test_oversized_input_value_is_a_protocol_error() -> None:
    ext, job = service_ext()
    with LoopbackHost(ext, inputs=["v" * 262_145]) as host:
        err = expect_error(host, job, lambda c: ext.ui.request_input("Name:"))
        assert err.code == -32603 and "input/request result" in err.message
        assert "want at most 262144 UTF-8 bytes, got 262145" in err.message


def test_unprompted_context_and_status_contributions() -> None:
    ext, _job = service_ext()
    ext.context(lambda params: [])
    ext.status("footer")(lambda params: "x")
    with LoopbackHost(ext) as host:
        item = {"label": "l", "content": "c", "placement": "prompt_prefix"}
        ext.ui.contribute_context([item])
        ext.ui.contribute_status("footer", "3 files", priority=2, style_role="muted")
        assert host.notifications("context/contribution") == [{"items": [item]}]
        assert host.notifications("status/contribution") == [
            {"surface": "footer", "text": "3 files", "priority": 2, "style_role": "muted"}]
        with pytest.raises(InvalidParams, match="placement"):
            ext.ui.contribute_context([{"label": "l", "content": "c", "placement": "middle"}])
        with pytest.raises(InvalidParams, match="1024"):
            ext.ui.contribute_status("footer", "x" * 1025)
    plain, _job = service_ext()
    with LoopbackHost(plain), pytest.raises(UnavailableError, match=r"contributes\] context"):
        plain.ui.contribute_context([])


def test_notify_and_confirm_need_their_manifest_flags() -> None:
    ext, job = service_ext()
    m = manifest_for(ext)
    m["contributes"]["notifications"] = False
    m["contributes"]["confirmations"] = False
    with LoopbackHost(ext, manifest=m) as host:
        assert "notifications" in expect_error(host, job, lambda c: ext.ui.notify("x")).message
        assert "confirmations" in expect_error(host, job, lambda c: ext.ui.confirm("x")).message
        assert host.notifications("notification") == []


def test_services_outside_a_handler_need_an_explicit_live_parent() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.raises(UnavailableError, match="parent_request_id"):
            ext.ui.request_input("outside")
        with pytest.raises(UnavailableError, match="not being served"):
            ext.ui.request_input("Name:", parent_request_id=4242)
        assert host.requests_from_extension("input/request") == []
    with pytest.raises(UnavailableError, match="after initialize"):
        Extension().ui.notify("before serving")


# ---- artifacts -----------------------------------------------------------------------------

def test_publish_artifact_inline_and_by_path(scratch) -> None:
    ext, job = service_ext()
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(50))
    (scratch / "captures").mkdir()
    (scratch / "captures" / "result.png").write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    inline = base64.b64encode(data).decode()
    with LoopbackHost(ext, scratch_dir=scratch) as host:
        first = run(host, job, lambda c: ext.artifacts.publish(mime_type="image/png",
                                                               data=inline))["artifact_id"]
        second = run(host, job, lambda c: ext.artifacts.publish(
            mime_type="image/png", path="captures/result.png", size=len(data),
            sha256=digest))["artifact_id"]
        assert host.artifacts[first] == data == host.artifacts[second]
        sent, by_path = (r["params"] for r in host.requests_from_extension("artifact/publish"))
        assert sent["data"] == inline and sent["parent_request_id"] == 2
        assert by_path["path"] == "captures/result.png" and by_path["sha256"] == digest
        # The host's verification errors propagate verbatim.
        err = expect_error(host, job, lambda c: ext.artifacts.publish(
            mime_type="image/png", path="captures/result.png", size=len(data) + 1, sha256=digest))
        assert err.code == -32602 and "size mismatch" in err.message


@pytest.mark.parametrize("kwargs", [
    {"path": "ok.bin", "size": 1, "sha256": "ABC"},
    {"path": "ok.bin", "size": -1, "sha256": "0" * 64},
    {"path": "ok.bin", "size": 20_971_521, "sha256": "0" * 64},
    {"data": "eA==", "path": "a", "size": 1, "sha256": "0" * 64},
])
def test_publish_artifact_refuses_bad_input_locally(kwargs) -> None:
    ext, job = service_ext()
    with LoopbackHost(ext) as host:
        err = expect_error(host, job, lambda c: ext.artifacts.publish(mime_type="image/png",
                                                                      **kwargs))
        assert err.code == -32602 and "artifact/publish params" in err.message
        assert host.requests_from_extension("artifact/publish") == []


def test_artifacts_need_the_feature() -> None:
    ext, job = service_ext()
    with LoopbackHost(ext, optional_features=[]) as host:
        err = expect_error(host, job, lambda c: ext.artifacts.publish(mime_type="a/b", data=""))
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
        first = ext.policy.evaluate(INTENT)
        return [first, ext.policy.evaluate(INTENT, approval_token=first["approval_token"])]

    with LoopbackHost(ext, policy=policy) as host:
        first, second = run(host, job, flow)
        assert first["decision"] == "ask" and second == {"decision": "allow"}
        retry = host.requests_from_extension("policy/evaluate")[1]["params"]
        assert retry["approval_token"] == TOKEN and retry["intent"] == INTENT
        err = expect_error(host, job, lambda c: ext.policy.evaluate(INTENT, approval_token="A1"))
        assert err.code == -32602 and err.data["path"] == "approval_token"


def test_host_results_are_checked_against_the_schema() -> None:
    # Every host answer meets the generated validator of its result type before SDK code
    # reads it (the Go and TypeScript SDKs refuse the same answers).
    ext, job = service_ext()
    for bad, fault in [({}, "decision"), ({"decision": "allow", "extra": 1}, "extra"),
                       ({"decision": "ask", "approval_token": 7}, "approval_token")]:
        with LoopbackHost(ext, policy=lambda p, bad=bad: bad) as host:
            err = expect_error(host, job, lambda c: ext.policy.evaluate(INTENT))
            assert err.code == -32603 and "policy/evaluate result" in err.message, bad
            assert fault in err.message, bad


def test_policy_token_outside_ask_is_a_protocol_error() -> None:
    ext, job = service_ext()
    bad = {"decision": "allow", "approval_token": TOKEN}
    with LoopbackHost(ext, policy=lambda p: bad) as host:
        err = expect_error(host, job, lambda c: ext.policy.evaluate(INTENT))
        assert err.code == -32603 and "only come with 'ask'" in err.message
    with LoopbackHost(ext, policy=lambda p: {"decision": "maybe"}) as host:
        err = expect_error(host, job, lambda c: ext.policy.evaluate(INTENT))
        assert "decision: want one of allow, ask, deny" in err.message
    assert issubclass(ProtocolError, Exception)


def test_get_secret_allowlist_bounds_and_unavailable() -> None:
    ext, job = service_ext()
    secrets = {"browser.api_token": "s3cret", "big": "v" * 65_537}
    with LoopbackHost(ext, secrets=secrets, secret_names=["browser.api_token", "big", "gone"]
                      ) as host:
        assert run(host, job, lambda c: ext.secrets.get("browser.api_token")) == {
            "value": "s3cret"}
        caught = []

        def missing(context):
            try:
                ext.secrets.get("gone")
            except SecretUnavailable as exc:
                caught.append(exc.code)
            return None

        run(host, job, missing)
        assert caught == [-32004]
        err = expect_error(host, job, lambda c: ext.secrets.get("big"))
        assert err.code == -32603 and "at most 65536 UTF-8 bytes, got 65537" in err.message
        assert "vvvv" not in err.message
        err = expect_error(host, job, lambda c: ext.secrets.get("undeclared"))
        assert err.code == -32602 and "not declared" in err.message
        assert len(host.requests_from_extension("secret/get")) == 3


# ---- presentation --------------------------------------------------------------------------

def snapshot(revision, **extra):
    return {"revision": revision, "activities": [], "actions": [], **extra}


def test_presentation_is_monotonic_and_carries_the_parent() -> None:
    ext, job = service_ext()
    owner = {"session_id": "s", "extension_instance_id": "i", "process_generation": 1}
    with LoopbackHost(ext) as host:
        run(host, job, lambda c: ext.presentation.update(snapshot(0)))
        ext.presentation.update(snapshot(1), resource_owner=owner)
        ext.presentation.update(snapshot(2))
        sent = host.notifications("presentation/update")
        assert sent[0]["parent_request_id"] == 2 and "resource_owner" not in sent[0]
        assert sent[1]["resource_owner"] == owner and "parent_request_id" not in sent[1]
        assert set(sent[2]) == {"snapshot"}
        with pytest.raises(InvalidParams, match="does not increase"):
            ext.presentation.update(snapshot(2))


@pytest.mark.parametrize("extra,path", [
    ({"activities": [{"id": f"a{i}", "label": "l", "state": "running"} for i in range(129)]},
     "snapshot.activities"),
    ({"actions": [{"id": f"x{i}", "label": "l", "command": "act"} for i in range(65)]},
     "snapshot.actions"),
    ({"status": {"state": "sleepy", "label": "l"}}, "snapshot.status.state"),
])
def test_presentation_limits_are_checked_locally(extra, path) -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.raises(InvalidParams) as err:
            ext.presentation.update(snapshot(0, **extra))
        assert err.value.path == path
        assert host.notifications("presentation/update") == []


def test_presentation_needs_the_manifest_flag_and_02() -> None:
    ext, _job = service_ext()
    m = manifest_for(ext)
    m["contributes"]["presentation"] = False
    with LoopbackHost(ext, manifest=m):
        with pytest.raises(UnavailableError, match="presentation"):
            ext.presentation.update(snapshot(0))
    with LoopbackHost(ext, api_version="0.1"), pytest.raises(UnavailableError, match=r"0\.2"):
        ext.presentation.update(snapshot(0))


# ---- dynamic tools -------------------------------------------------------------------------

def tool(name, handler=print, description=""):
    return {"name": name, "description": description, "handler": handler}


def test_dynamic_catalog_revisions_retire_after_eight() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        assert ext.catalog.revision() == 0
        for i in range(1, 10):
            update = ext.catalog.register([tool("dyn", lambda a, i=i: f"version {i}", f"v{i}")])
            assert update["revision"] == i and ext.catalog.revision() == i
        # Pinned calls reach the handler the model saw; current calls the newest.
        assert host.call_tool("dyn", catalog_revision=5)["content"][0]["text"] == "version 5"
        assert host.call_tool("dyn")["content"][0]["text"] == "version 9"
        for revision, word in ((1, "retired"), (0, "retired"), (10, "unknown")):
            with pytest.raises(RemoteError) as err:
                host.call_tool("dyn", catalog_revision=revision)
            assert err.value.code == -32602
            assert f"catalog revision {revision} is {word}" in err.value.message
        update = ext.catalog.unregister(["dyn", "absent"])
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
            ext.catalog.register([tool("dyn")])
        assert ext.catalog.revision() == 0
        with pytest.raises(ProtocolError, match="revision 5, expected 1"):
            ext.catalog.register([tool("dyn")])
        assert ext.catalog.revision() == 0
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
        ext.catalog.register([tool("dyn", lambda a: "staged")])
        assert seen[0].wait().result["content"][0]["text"] == "staged"


@pytest.mark.parametrize("call,reason", [
    (lambda e: e.catalog.register([]), "at least 1"),
    (lambda e: e.catalog.register([tool(f"t{i}") for i in range(257)]), "at most 256"),
    (lambda e: e.catalog.register([tool("a")] * 2), "twice"),
    (lambda e: e.catalog.register([tool("a b")]), "tool name"),
    (lambda e: e.catalog.register([{"name": "a", "handler": print, "color": 1}]),
     "unknown keys"),
    (lambda e: e.catalog.register([tool("a", 3)]), "callable"),
    (lambda e: e.catalog.unregister([]), "at least 1"),
])
def test_dynamic_tool_input_is_checked(call, reason) -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.raises(InvalidParams, match=reason):
            call(ext)
        assert host.requests_from_extension("tools/register") == []
        assert ext.catalog.revision() == 0


def test_dynamic_tools_need_the_feature() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext, optional_features=[]):
        with pytest.raises(UnavailableError, match="dynamic_tools"):
            ext.catalog.register([tool("x")])


# ---- child sessions ------------------------------------------------------------------------

POLICY = {"tools": ["read"], "max_depth": 1, "max_concurrent_children": 1, "max_turns": 1,
          "max_tokens": None, "max_cost_microdollars": 0, "max_output_bytes": 10,
          "timeout_ms": 1000}
SPAWN = dict(task_name="inspect", message="look", idempotency_key="k1", policy=POLICY)


def spawn(ext, **change):
    args = {**SPAWN, **change}
    return ext.agents.spawn(args.pop("task_name"), args.pop("message"), **args)


def test_agent_helpers_round_trip() -> None:
    ext, job = service_ext()

    def flow(context):
        child = spawn(ext, profile="review", fingerprint="0" * 64,
                      model_selection={"provider": "test"})
        again = spawn(ext)
        return [child, again, ext.agents.message(child["agent_id"], "more"),
                ext.agents.follow_up(child["agent_id"], "again"),
                ext.agents.models(query="m", limit=2), ext.agents.wait(timeout_ms=10),
                ext.agents.list(), ext.agents.interrupt(child["agent_id"])]

    with LoopbackHost(ext) as host:
        child, again, msg, follow, models, waited, listed, stopped = run(host, job, flow)
        assert child["created"] is True and again == {**child, "created": False}
        assert msg == follow == {"accepted": True}
        assert len(models["models"]) == 2 and waited["timed_out"] is False
        assert listed["agents"][0]["state"] == "settled" and stopped == {"interrupted": True}
        sent = host.requests_from_extension("agent/spawn")[0]["params"]
        assert sent["policy"] == POLICY
        assert sent["parent_request_id"] == 2 and sent["profile"] == "review"
        err = expect_error(host, job, lambda c: ext.agents.interrupt("agent-99"))
        assert err.code == -32002


@pytest.mark.parametrize("change,field", [
    ({"task_name": "Upper"}, "task_name"), ({"task_name": "x" * 49}, "task_name"),
    ({"profile": "bad profile"}, "profile"), ({"fingerprint": "ABC"}, "fingerprint"),
    ({"policy": {**POLICY, "tools": []}}, "policy.tools"),
    ({"policy": {**POLICY, "tools": ["read", "read"]}}, "policy.tools"),
    ({"policy": {**POLICY, "tools": ["fly"]}}, "policy.tools[0]"),
    ({"policy": {**POLICY, "max_depth": 2}}, "policy.max_depth"),
    ({"policy": {**POLICY, "max_concurrent_children": 9}}, "policy.max_concurrent_children"),
    ({"policy": {**POLICY, "max_tokens": 999}}, "policy.max_tokens"),
    ({"message": "m" * 131_073}, "message"),
    ({"policy": {**POLICY, "max_turns": True}}, "policy.max_turns"),
    ({"idempotency_key": "k" * 257}, "idempotency_key"),
])
def test_spawn_bounds_are_checked_locally(change, field) -> None:
    ext, job = service_ext()
    with LoopbackHost(ext) as host:
        err = expect_error(host, job, lambda c: spawn(ext, **change))
        assert err.code == -32602 and err.data["path"] == field
        err = expect_error(host, job, lambda c: ext.agents.wait(timeout_ms=60_001))
        assert err.code == -32602 and err.data["path"] == "timeout_ms"
        assert host.requests_from_extension("agent/spawn") == []


def test_agents_need_the_feature_and_a_parent() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext, optional_features=[]):
        with pytest.raises(UnavailableError, match="agent_sessions"):
            ext.agents.list()
    with LoopbackHost(ext), pytest.raises(UnavailableError, match="parent"):
        ext.agents.list()


# ---- kv ------------------------------------------------------------------------------------

def test_kv_get_put_list_commit_conflict() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext):
        assert ext.kv.get("missing")["found"] is False
        version = ext.kv.put("a", {"n": 1}, expect_absent=True)
        entry = ext.kv.get("a")
        assert entry["value"] == {"n": 1} and entry["version"] == version
        with pytest.raises(KVConflict) as err:
            ext.kv.put("a", 2, expect_absent=True)
        assert err.value.code == -32005 and err.value.key == "a"
        assert ext.kv.get("a")["value"] == {"n": 1}  # nothing applied
        with ext.kv.transaction() as tx:
            tx.expect("a", version)
            tx.put("a", 2)
            tx.put("b", 3)
            tx.delete("zzz")
        assert tx.versions[2] is None and ext.kv.get("a")["value"] == 2
        for i in range(5):
            ext.kv.put(f"p/{i}", i, namespace="test-extension.sub")
        page = ext.kv.list("p/", namespace="test-extension.sub", limit=2)
        assert [e["key"] for e in page["entries"]] == ["p/0", "p/1"] and page["next_cursor"]
        assert [e["value"] for e in ext.kv.scan("p/", namespace="test-extension.sub",
                                                limit=2)] == [0, 1, 2, 3, 4]
        ext.kv.delete("b")
        assert ext.kv.get("b")["found"] is False
        with pytest.raises(RemoteError) as foreign:
            ext.kv.get("x", namespace="someone-else")
        assert foreign.value.code == -32602
        # The namespace of a write defaults to the extension's own.
        raw = ext.kv.commit([{"op": "put", "key": "r", "value": None}])
        assert raw["versions"][0]["key"] == "r" and ext.kv.get("r")["found"] is True


@pytest.mark.parametrize("call,path", [
    (lambda kv: kv.get("k" * 513), "key"),
    (lambda kv: kv.get(""), "key"),
    (lambda kv: kv.commit([]), "writes"),
    (lambda kv: kv.commit([{"op": "delete", "namespace": "n", "key": "k"}] * 257), "writes"),
    (lambda kv: kv.list("", limit=1001), "limit"),
])
def test_kv_bounds_are_checked_locally(call, path) -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext) as host:
        with pytest.raises(InvalidParams) as err:
            call(ext.kv)
        assert err.value.path == path
        assert not any(m.get("method", "").startswith("kv.") for _, m in host.frames)


def test_kv_needs_api_04() -> None:
    ext, _job = service_ext()
    with LoopbackHost(ext, api_version="0.2"), pytest.raises(UnavailableError, match=r"0\.4"):
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
        ext.catalog.register([tool("a", lambda a: "a"), tool("b", lambda a: "b")])
        before = ext.catalog.revision()
        update = ext.catalog.replace([tool("b", lambda a: "b2"), tool("c", lambda a: "c")])
        assert update["revision"] == before + 1 == ext.catalog.revision()
        assert sorted(update["tools"]) == ["b", "c"]
        assert host.call_tool("b")["content"][0]["text"] == "b2"
        with pytest.raises(RemoteError, match='unknown tool "a"'):
            host.call_tool("a")
        # Refused locally before anything is sent: nothing changes.
        with pytest.raises(InvalidParams, match="twice"):
            ext.catalog.replace([tool("d")] * 2)
        with pytest.raises(InvalidParams, match="256"):
            ext.catalog.replace([tool(f"t{i}") for i in range(257)])
        assert ext.catalog.revision() == before + 1
        assert ext.catalog.replace([])["tools"] == []


def test_replace_tools_refused_by_the_host_changes_nothing() -> None:
    ext, _job = service_ext()

    def refuse(params: dict[str, object]) -> object:
        from octet_extension.testing import HostError
        raise HostError(-32602, "catalog revision 1 refused: tool c is provided by another")

    with LoopbackHost(ext, services={"tools/replace": refuse}) as host:
        with pytest.raises(RemoteError, match="refused"):
            ext.catalog.replace([tool("c", lambda a: "c")])
        assert ext.catalog.revision() == 0
        with pytest.raises(RemoteError, match='unknown tool "c"'):
            host.call_tool("c")
