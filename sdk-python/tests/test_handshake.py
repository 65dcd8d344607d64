"""initialize: manifest checks before negotiation, feature negotiation, versions."""

from __future__ import annotations

import pytest

from octet_extension import Extension, RemoteError
from octet_extension.testing import ALL_OPTIONAL, LoopbackHost, manifest_for


def make_ext(**kwargs: object) -> Extension:
    ext = Extension(**kwargs)

    @ext.tool(name="t", description="a tool")
    def t(args: dict[str, object]) -> str:
        return "ok"

    @ext.command(name="c", description="a command")
    def c(arguments: list[str]) -> str:
        return "ok"

    return ext


def test_negotiates_the_supported_subset_and_caps_concurrency() -> None:
    ext = make_ext(max_concurrent_requests=16)
    with LoopbackHost(ext, optional_features=[*ALL_OPTIONAL, "future_thing", "runtime_commands"],
                      max_concurrent_requests=3) as host:
        protocol = host.initialize_result["protocol"]
        assert protocol["version"] == "0.4"
        assert protocol["features"][:2] == ["request_cancellation", "content_parts"]
        assert "future_thing" not in protocol["features"]
        assert "runtime_commands" not in protocol["features"]
        assert "kv" in protocol["features"]
        # No on_lifecycle handler: lifecycle_events is not accepted.
        assert "lifecycle_events" not in protocol["features"]
        assert protocol["limits"] == {"max_concurrent_requests": 3}
        assert ext.negotiated_concurrency == 3
        assert ext.negotiated_features == frozenset(protocol["features"])
        assert host.initialize_result["tools"] == [
            {"name": "t", "description": "a tool", "parameters": {"type": "object"}}]
        assert host.initialize_result["commands"] == [
            {"name": "c", "description": "a command"}]


def test_kv_is_not_negotiated_on_api_02() -> None:
    with LoopbackHost(make_ext(), api_version="0.2") as host:
        assert "kv" not in host.features
        assert host.initialize_result["api_version"] == "0.2"


def test_unsupported_required_feature_is_rejected_by_name() -> None:
    with pytest.raises(RemoteError) as err:
        with LoopbackHost(make_ext(), required_features=["request_cancellation", "teleport"]):
            pass
    assert err.value.code == -32602
    assert "teleport" in err.value.message


def test_api_03_is_refused_with_its_own_code() -> None:
    host = LoopbackHost(make_ext(), api_version="0.3", initialize=False)
    with host:
        response = host.initialize()
        assert response.error["code"] == -32006
        assert "0.3" in response.error["message"]
        assert response.error["data"]["requested"] == "0.3"
    with pytest.raises(ValueError, match=r"0\.3"):
        Extension(api_version="0.3")


def test_pinned_version_mismatch_is_refused() -> None:
    host = LoopbackHost(make_ext(api_version="0.2"), api_version="0.4", initialize=False)
    with host:
        # the pinned extension speaks 0.2; the host asks for 0.4
        response = host.request("initialize", {**host.initialize_params(), "api_version": "0.4"})
        assert response.error["code"] == -32006
        assert response.error["data"]["supported"] == ["0.2"]


def test_follows_the_host_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OCTET_EXTENSION_API_VERSION", "0.2")
    assert Extension().api_version == "0.2"
    monkeypatch.delenv("OCTET_EXTENSION_API_VERSION")
    assert Extension().api_version == "0.1"
    assert Extension(api_version="0.4").api_version == "0.4"


@pytest.mark.parametrize("field,value,needle", [
    ("tools", ["t", "extra"], "declared in the manifest but not implemented: ['extra']"),
    ("tools", [], "implemented but not in the manifest: ['t']"),
    ("commands", ["other"], "commands"),
])
def test_bootstrap_decorators_must_match_the_manifest(field: str, value: list[str],
                                                      needle: str) -> None:
    ext = make_ext()
    m = manifest_for(ext)
    m["contributes"][field] = value
    with pytest.raises(RemoteError) as err:
        with LoopbackHost(ext, manifest=m, optional_features=["dynamic_tools"]):
            pass
    assert err.value.code == -32602
    assert needle in err.value.message


def test_undeclared_hook_and_context_are_rejected() -> None:
    ext = make_ext()
    ext.hook("before_prompt")(lambda payload: None)
    m = manifest_for(ext)
    m["contributes"]["hooks"] = []
    with pytest.raises(RemoteError, match="hooks"), LoopbackHost(ext, manifest=m):
        pass
    ext2 = make_ext()
    ext2.context(lambda params: [])
    m2 = manifest_for(ext2)
    m2["contributes"]["context"] = False
    with pytest.raises(RemoteError, match="context"), LoopbackHost(ext2, manifest=m2):
        pass


def test_api_01_has_no_protocol_block_and_forbids_output_schema() -> None:
    ext = make_ext()
    with LoopbackHost(ext, api_version="0.1") as host:
        assert "protocol" not in host.initialize_result
        assert ext.negotiated_concurrency == 1
    ext.tool(name="s", description="", output_schema={"type": "object"})(lambda a: "x")
    m = manifest_for(ext, api_version="0.1")
    with pytest.raises(RemoteError, match="output_schema"):
        with LoopbackHost(ext, api_version="0.1", manifest=m):
            pass


def test_lifecycle_is_negotiated_only_with_handlers_and_lists_subscriptions() -> None:
    ext = make_ext()
    ext.on_lifecycle("turn_settled")(lambda e: None)
    ext.on_lifecycle("session/started")(lambda e: None)
    with LoopbackHost(ext) as host:
        protocol = host.initialize_result["protocol"]
        assert "lifecycle_events" in protocol["features"]
        assert protocol["lifecycle_events"] == ["session/started", "turn/settled"]
    with pytest.raises(ValueError, match="unknown lifecycle"):
        ext.on_lifecycle("turn_exploded")


def test_requests_before_initialize_and_second_initialize() -> None:
    host = LoopbackHost(make_ext(), initialize=False)
    with host:
        early = host.request("tool/call", {"name": "t", "arguments": {}})
        assert early.error["code"] == -32600
        assert host.initialize().error is None
        again = host.initialize()
        assert again.error["code"] == -32600


def test_malformed_initialize_params_name_the_field() -> None:
    host = LoopbackHost(make_ext(), initialize=False)
    with host:
        bad = host.request("initialize", {**host.initialize_params(), "manifest": "nope"})
        assert bad.error["code"] == -32602
        assert bad.error["data"]["path"] == "manifest"
        params = host.initialize_params()
        params["protocol"]["limits"]["max_concurrent_requests"] = 0
        zero = host.request("initialize", params)
        assert zero.error["code"] == -32602
        assert "max_concurrent_requests" in zero.error["message"]


def test_constructor_rejects_bad_limits() -> None:
    with pytest.raises(ValueError, match="max_concurrent_requests"):
        Extension(max_concurrent_requests=0)
    with pytest.raises(ValueError, match="max_pending_requests"):
        Extension(max_pending_requests=-1)
