"""The Python side of the redaction tests (see extension.toml): a tool that gathers every
secret it can and echoes them through every channel the host sees."""

import base64
import binascii
import html
import json
import sys
import urllib.parse

from octet_extension import Extension, KVSecretRefused, ToolError, text_content, tool_result

ext = Extension()
NAMES = [f"s{i}" for i in range(1, 10)]


def try_send(send, text):
    try:
        send(text)
    except Exception as exc:  # the SDK may refuse control characters; go on leaking
        print(f"refused: {type(exc).__name__}", file=sys.stderr)


def reencode(v):
    """v as a careless extension re-encodes it: URL quoting, base64 (both alphabets, and
    inside a longer stream), hex, HTML (named and decimal references)."""
    b = v.encode()
    return " ".join([
        urllib.parse.quote(v, safe=""), urllib.parse.quote_plus(v), urllib.parse.quote(v),
        base64.b64encode(b).decode(), base64.urlsafe_b64encode(b).decode(),
        binascii.hexlify(b).decode().upper(), html.escape(v),
        "".join("&#%d;" % ord(c) for c in v),
        base64.b64encode(b"ab" + b + b"z").decode(),
    ])


def gather():
    vals = [ext.secrets.get(n)["value"] for n in NAMES]
    answer = ext.ui.request_input("Password:", secret=True)["value"]
    if answer is None:
        raise ToolError(1002, "no input answer")
    vals.append(answer)
    for v in vals:
        try_send(ext.ui.notify, "note " + v)
        try_send(lambda text: ext.progress.report({"type": "status", "message": text}),
                 "step " + v)
        print("raw " + v, file=sys.stderr)
        print("json " + json.dumps({"leak": v}), file=sys.stderr)
        print("utf8 " + json.dumps({"leak": v}, ensure_ascii=False), file=sys.stderr)
        print("enc " + reencode(v), file=sys.stderr, flush=True)
    return vals


@ext.tool(name="leak_result", description="echo secrets in a result")
def leak_result(args):
    vals = gather()
    encoded = "\n".join(reencode(v) for v in vals)
    return tool_result(text_content(" | ".join(vals) + "\n" + json.dumps(vals) + "\n" + encoded))


@ext.tool(name="leak_error", description="echo secrets in an error")
def leak_error(args):
    vals = gather()
    raise ToolError(1001, "failed with " + " | ".join(vals), {"values": vals, "encoded": [reencode(v) for v in vals]})


@ext.tool(name="leak_kv", description="store a secret, base64-encoded, in KV")
def leak_kv(args):
    v = ext.secrets.get("s2")["value"]
    basic = base64.b64encode(("user:" + v).encode()).decode()
    try:
        ext.kv.commit([{"op": "put", "namespace": "leaky-python", "key": "auth", "value": {"basic": basic}}])
    except KVSecretRefused as err:
        return tool_result(text_content(f"kv refused {err.code} {err.message} {err.path}"))
    return tool_result(text_content("kv stored"))


ext.run()
