#!/usr/bin/env python3
"""The benchmark's floor for Python: the least code that speaks the octet wire.

It answers initialize, tool/call (echo, callback_n, crash) and shutdown, one request
at a time, with one write and flush per answer: no validation, no worker pool, no
admission queue. An SDK measured against it shows what its machinery costs.
"""

import json
import os
import sys

_in = sys.stdin.buffer
_out = sys.stdout.buffer
_state = {"name": "", "seq": 0}


def write(obj):
    _out.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
    _out.flush()


def text_result(text, structured):
    return {"content": [{"type": "text", "text": text}], "structured_content": structured}


def call_host(method, params):
    # The floor serves one request at a time, so the next frame is the answer.
    _state["seq"] += 1
    rid = "py:%d" % _state["seq"]
    write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    for line in _in:
        frame = json.loads(line)
        if "method" not in frame and frame.get("id") == rid:
            if "error" in frame:
                raise RuntimeError("%s failed: %r" % (method, frame["error"]))
            return frame.get("result")
    raise RuntimeError("stdin closed while waiting for %s" % method)


def initialize(params):
    manifest = params["manifest"]
    _state["name"] = manifest["name"]
    tools = [
        {"name": t, "description": t, "parameters": {"type": "object"}}
        for t in manifest.get("contributes", {}).get("tools", [])
    ]
    result = {
        "api_version": params["api_version"],
        "name": manifest["name"],
        "version": manifest["version"],
        "tools": tools,
        "commands": [],
    }
    proto = params.get("protocol")
    if proto is not None:
        features = list(proto["required_features"])
        if "kv" in proto.get("optional_features", []):
            features.append("kv")
        result["protocol"] = {
            "version": proto["version"],
            "features": features,
            "limits": {"max_concurrent_requests": 64},
        }
    return result


def tool_call(params):
    name = params["name"]
    args = params.get("arguments", {})
    if name == "echo":
        return text_result("echo", {"value": args.get("value")})
    if name == "callback_n":
        for _ in range(args["n"]):
            call_host("kv.get", {"namespace": _state["name"], "key": "callback"})
        return text_result("done", {"calls": args["n"]})
    if name == "crash":
        os._exit(args.get("code", 3))
    raise KeyError("floor has no tool %r" % name)


def main():
    for line in _in:
        frame = json.loads(line)
        method = frame.get("method")
        if method is None or "id" not in frame:
            continue
        reply = {"jsonrpc": "2.0", "id": frame["id"]}
        try:
            if method == "initialize":
                reply["result"] = initialize(frame["params"])
            elif method == "tool/call":
                reply["result"] = tool_call(frame["params"])
            elif method == "shutdown":
                reply["result"] = {}
            else:
                reply["error"] = {"code": -32601, "message": "method not found", "data": {"method": method}}
        except Exception as exc:  # the floor reports, never dies, on a bad request
            reply["error"] = {"code": -32603, "message": str(exc)}
        write(reply)
        if method == "shutdown":
            return


if __name__ == "__main__":
    main()
