"""Tool calls and the other host methods: argument validation, results, errors."""

from __future__ import annotations

import pytest

from octet_extension import (
    Extension,
    InvalidParams,
    RemoteError,
    ToolError,
    image_content,
    text_content,
    tool_result,
)
from octet_extension._registry import make_tool
from octet_extension.testing import LoopbackHost

TYPED = {"type": "object",
         "properties": {"count": {"type": "integer"}, "label": {"type": "string"}},
         "required": ["count", "label"], "additionalProperties": False}


@pytest.fixture
def ext() -> Extension:
    ext = Extension()

    @ext.tool(name="one", description="one parameter", parameters=TYPED)
    def one(args):
        return f"{args['label']}:{args['count']}"

    @ext.tool(name="two", description="two parameters")
    def two(args, context):
        return tool_result(text_content("ctx"), structured_content={
            "name": context["name"], "request_id": context["request_id"],
            "owner": context["resource_owner"], "call_id": context["call_id"],
            "cancelled": context["cancellation"].cancelled,
        })

    @ext.tool(name="none", description="no parameters at all")
    def none():
        return None

    @ext.tool(name="typed_out", description="", output_schema={
        "type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
    def typed_out(args):
        return tool_result("x", structured_content={"n": args.get("n", 1)})

    @ext.tool(name="fail", description="")
    def fail(args):
        if "data" in args:
            raise ToolError(args["code"], "custom failure", args["data"])
        raise ToolError(args["code"], "custom failure")

    @ext.tool(name="boom", description="")
    def boom(args):
        raise RuntimeError("exploded on purpose")

    @ext.tool(name="returns", description="")
    def returns(args):
        return args["value"]

    @ext.tool(name="big", description="")
    def big(args):
        return "x" * args["bytes"]

    @ext.command(name="join", description="join")
    def join(arguments, context):
        return {"text": f"{context['name']}:" + " ".join(arguments)}

    @ext.hook("before_prompt")
    def before_prompt(payload):
        return {"disposition": {"action": "replace", "prompt": payload["prompt"].upper()}}

    @ext.hook("after_tool_call")
    def after_tool_call(payload, context):
        return None

    @ext.context
    def context_items(params):
        return [{"label": "l", "content": params.get("prompt", ""), "placement": "prompt_suffix"}]

    @ext.status("status")
    def status(params):
        return "ready"

    @ext.renderer("one")
    def render(params):
        return [{"text": params["result"]["content"][0]["text"], "style_role": None}]

    return ext


def error_of(host, name, arguments, **extra):
    with pytest.raises(RemoteError) as err:
        host.call_tool(name, arguments, **extra)
    return err.value


def test_one_and_two_parameter_handlers(ext: Extension) -> None:
    owner = {"session_id": "s", "extension_instance_id": "i", "process_generation": 1}
    with LoopbackHost(ext) as host:
        assert host.call_tool("one", {"count": 2, "label": "a"}) == {
            "content": [{"type": "text", "text": "a:2"}]}
        result = host.call_tool("two", {}, resource_owner=owner, call_id="c1")
        sc = result["structured_content"]
        assert sc["name"] == "two" and sc["owner"] == owner and sc["call_id"] == "c1"
        assert isinstance(sc["request_id"], int) and sc["cancelled"] is False
        assert host.call_tool("none") == {"content": [{"type": "text", "text": ""}]}


@pytest.mark.parametrize("arguments,pointer,keyword,reason", [
    ({"count": "2", "label": "a"}, "/count", "type", "want type integer, got string"),
    ({"count": True, "label": "a"}, "/count", "type", "want type integer, got boolean"),
    ({"count": 2}, "", "required", 'missing required property "label"'),
    ({"count": 2, "label": "a", "extra": 1}, "", "additionalProperties",
     'unexpected property "extra"'),
])
def test_arguments_are_validated_against_parameters(ext, arguments, pointer, keyword,
                                                    reason) -> None:
    # The fault contract's error object (docs/conformance.md#validation-faults).
    with LoopbackHost(ext) as host:
        err = error_of(host, "one", arguments)
        assert err.code == -32602
        assert err.message == f"invalid arguments: {pointer or '(root)'}: {reason}"
        assert err.data == {"keyword": keyword, "path": "/arguments" + pointer,
                            "pointer": pointer, "reason": reason}
        assert list(err.data) == sorted(err.data)


def test_malformed_tool_call_params(ext: Extension) -> None:
    with LoopbackHost(ext) as host:
        response = host.request("tool/call", {"name": "one", "arguments": {}, "extra": 1})
        assert response.error["code"] == -32602 and "'extra'" in response.error["message"]
        for owner, path in (
            ({"session_id": "", "extension_instance_id": "i", "process_generation": 0},
             "resource_owner.session_id"),
            ({"session_id": "s", "extension_instance_id": "i", "process_generation": -1},
             "resource_owner.process_generation"),
            ({"session_id": "s", "extension_instance_id": "i"}, "resource_owner"),
        ):
            response = host.request("tool/call", {"name": "one", "arguments": {},
                                                  "resource_owner": owner})
            assert response.error["code"] == -32602 and response.error["data"]["path"] == path
        response = host.request("command/execute", {"name": "join", "arguments": [],
                                                    "surprise": True})
        assert response.error["code"] == -32602 and "surprise" in response.error["message"]
        response = host.request("status/collect", {"surface": "sidebar"})
        assert response.error["code"] == -32602 and response.error["data"]["path"] == "surface"
        assert error_of(host, "nope", {}).code == -32602
        response = host.request("tool/call", {"name": "one", "arguments": [1]})
        assert response.error["code"] == -32602 and response.error["data"]["path"] == "arguments"
        response = host.request("tool/call", {"name": 5})
        assert response.error["data"]["path"] == "name"
        response = host.request("tool/call", {"name": "one", "arguments": {},
                                              "catalog_revision": -1})
        assert response.error["data"]["path"] == "catalog_revision"


def test_structured_content_must_match_output_schema(ext: Extension) -> None:
    with LoopbackHost(ext) as host:
        assert host.call_tool("typed_out", {"n": 3})["structured_content"] == {"n": 3}
        err = error_of(host, "typed_out", {"n": "three"})
        assert err.code == -32603 and "output_schema" in err.message


def test_tool_error_is_carried_verbatim(ext: Extension) -> None:
    with LoopbackHost(ext) as host:
        response = host.request("tool/call", {"name": "fail", "arguments": {
            "code": 4001, "data": {"why": [1, 2]}}})
        assert response.error == {"code": 4001, "message": "custom failure",
                                  "data": {"why": [1, 2]}}
        response = host.request("tool/call", {"name": "fail", "arguments": {"code": 7}})
        assert response.error == {"code": 7, "message": "custom failure"}
        response = host.request("tool/call", {"name": "fail", "arguments": {
            "code": 7, "data": None}})
        assert response.error == {"code": 7, "message": "custom failure", "data": None}
        # Reserved protocol codes are refused (and that refusal is an internal error).
        err = error_of(host, "fail", {"code": -32602})
        assert err.code == -32603 and "reserved" in err.message


def test_uncaught_exception_is_internal_error_without_traceback(ext, capfd) -> None:
    with LoopbackHost(ext) as host:
        err = error_of(host, "boom", {})
        assert err.code == -32603
        assert err.message == 'tool "boom" failed: RuntimeError: exploded on purpose'
        assert err.data == {"tool": "boom", "exception": "RuntimeError"}
        assert "Traceback" not in repr(host.raw_lines)
    assert "Traceback" in capfd.readouterr().err  # the traceback goes to the stderr log


@pytest.mark.parametrize("value,needle", [
    ({"content": []}, "non-empty"),
    ({"content": [{"type": "image", "artifact_id": "a", "mime_type": "image/png"}]},
     "at least one text part"),
    ({"content": [{"type": "video", "text": "x"}]}, "unknown type"),
    ({"content": "x", "surprise": 1}, "unknown fields"),
    ({"content": "x", "structured_content": {"s": "y" * 300_000}}, "structured_content is"),
    ({"content": "x", "metadata": {"m": "y" * 70_000}}, "metadata is"),
    ({"content": "x", "metadata": []}, "metadata must be an object"),
    ({"content": "x", "is_error": "yes"}, "is_error"),
    (42, "returned int"),
    ({"content": "x", "metadata": float("nan")}, "metadata must be an object"),
])
def test_bad_results_are_internal_errors(ext, value, needle) -> None:
    with LoopbackHost(ext) as host:
        # A handler returning the value as-is: structure checks happen in the SDK.
        ext._tools["returns"] = make_tool("returns", "", lambda a: value)
        host.ext._session.catalogs._revisions[0] = dict(ext._tools)
        err = error_of(host, "returns", {})
        assert err.code == -32603 and needle in err.message


def test_nan_result_is_not_json() -> None:
    ext = Extension()
    ext.tool(name="nan", description="")(
        lambda a: tool_result("x", structured_content={"v": float("nan")}))
    with LoopbackHost(ext) as host:
        err = error_of(host, "nan", {})
        assert err.code == -32603 and "JSON" in err.message


def test_result_over_the_frame_limit_is_answered_32603(ext: Extension) -> None:
    with LoopbackHost(ext) as host:
        err = error_of(host, "big", {"bytes": 1_100_000})
        assert err.code == -32603
        assert "over the 1048576-byte message limit" in err.message
        assert err.data["limit"] == 1048576 and err.data["size"] > 1_100_000
        assert all(len(line) <= 1_048_577 for line in host.raw_lines)
        # The connection is still healthy.
        assert host.call_tool("big", {"bytes": 3})["content"][0]["text"] == "xxx"


def test_media_parts_pass_through(ext: Extension) -> None:
    ext2 = Extension()
    ext2.tool(name="m", description="")(lambda a: tool_result(
        "caption", image_content("art-1", "image/png", alt="alt")))
    with LoopbackHost(ext2) as host:
        assert host.call_tool("m")["content"][1] == {
            "type": "image", "artifact_id": "art-1", "mime_type": "image/png", "alt": "alt"}


def test_api_01_results_are_strings(ext: Extension) -> None:
    del ext._tools["typed_out"]  # 0.1 forbids output schemas
    with LoopbackHost(ext, api_version="0.1") as host:
        assert host.call_tool("one", {"count": 1, "label": "z"}) == {"content": "z:1"}
        assert host.call_tool("returns", {"value": {"content": "c", "metadata": {"k": 1}}}) == {
            "content": "c", "metadata": {"k": 1}}
        err = error_of(host, "returns", {"value": {"content": 5}})
        assert err.code == -32603


def test_commands_hooks_context_status_renderer(ext: Extension) -> None:
    with LoopbackHost(ext) as host:
        r = host.request("command/execute", {"name": "join", "arguments": ["a", "b"]})
        assert r.result == {"text": "join:a b"}
        r = host.request("command/execute", {"name": "join", "arguments": "a b"})
        assert r.error["code"] == -32602 and r.error["data"]["path"] == "arguments"
        r = host.request("command/execute", {"name": "missing", "arguments": []})
        assert r.error["code"] == -32602
        r = host.request("hook/run", {"hook": "before_prompt", "payload": {"prompt": "hi"}})
        assert r.result == {"disposition": {"action": "replace", "prompt": "HI"}}
        r = host.request("hook/run", {"hook": "after_tool_call", "payload": {
            "name": "one", "arguments": {}, "output": "", "is_error": False}})
        assert r.result == {}
        r = host.request("hook/run", {"hook": "after_response", "payload": {"response": ""}})
        assert r.error["code"] == -32602 and "after_response" in r.error["message"]
        r = host.request("context/collect", {"prompt": "p"})
        assert r.result == {"items": [{"label": "l", "content": "p", "placement": "prompt_suffix"}]}
        r = host.request("status/collect", {"surface": "status"})
        assert r.result == {"surface": "status", "text": "ready", "priority": 0}
        r = host.request("status/collect", {"surface": "footer"})
        assert r.error["code"] == -32602
        r = host.request("tool/render", {"name": "one", "arguments": {}, "result": {
            "content": [{"type": "text", "text": "shown"}]}})
        assert r.result == {"segments": [{"text": "shown", "style_role": None}]}
        r = host.request("no/such", {})
        assert r.error == {"code": -32601, "message": "method 'no/such' is not served",
                           "data": {"method": "no/such"}}


def test_envelope_problems_are_invalid_request(ext: Extension) -> None:
    with LoopbackHost(ext) as host:
        host.send_raw(b'{"jsonrpc":"1.0","id":77,"method":"tool/call","params":{}}\n')
        r = host.wait_for(lambda m: m.get("id") == 77)
        assert r["error"]["code"] == -32600 and "jsonrpc" in r["error"]["message"]
        host.send_raw(b'{"jsonrpc":"2.0","id":78,"method":"tool/call","params":[1]}\n')
        r = host.wait_for(lambda m: m.get("id") == 78)
        assert r["error"]["code"] == -32600 and "params" in r["error"]["message"]
        host.send_raw(b'{"jsonrpc":"2.0","id":79,"method":"tool/call","params":{},"x":1}\n')
        r = host.wait_for(lambda m: m.get("id") == 79)
        assert r["error"]["code"] == -32600 and "'x'" in r["error"]["message"]
        # Still serving.
        assert host.call_tool("one", {"count": 1, "label": "ok"})


def test_registration_errors_name_the_problem() -> None:
    ext = Extension()
    ext.tool(name="dup", description="")(lambda a: "")
    with pytest.raises(ValueError, match="twice"):
        ext.tool(name="dup", description="")(lambda a: "")
    with pytest.raises(ValueError, match="tool name"):
        ext.tool(name="has space", description="")(lambda a: "")
    with pytest.raises(ValueError, match="unknown hook"):
        ext.hook("before_everything")
    with pytest.raises(ValueError, match="surface"):
        ext.status("sidebar")
    with pytest.raises(TypeError, match="parameters"):
        ext.tool(name="p", description="", parameters="object")(lambda a: "")  # type: ignore[arg-type]
    with pytest.raises(InvalidParams):
        raise InvalidParams("x", "p")
