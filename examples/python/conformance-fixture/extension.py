"""The conformance fixture (docs/design/fixture.md), built with the public SDK API only."""

# hashlib, subprocess and pathlib are imported inside the tools that use them: together they
# cost ~10 ms of start-up, and the fixture is what the cold-start benchmark measures.
import os
import threading
import time

from octet_extension import (
    Cancelled,
    Extension,
    FeatureName,
    SettingsRefused,
    ToolError,
    current_cancellation,
    text_content,
    tool_result,
)

ext = Extension()
NAMESPACE = "conformance-fixture"
stuck_shutdown = threading.Event()


def obj(properties, required=(), closed=False):
    schema = {"type": "object", "properties": properties, "required": list(required)}
    if closed:
        schema["additionalProperties"] = False
    return schema


INT = {"type": "integer"}
STR = {"type": "string"}


_PERIOD = bytes(range(251))


def sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


@ext.tool(name="echo", description="Echo a value as structured content",
          parameters=obj({"value": {}}, ["value"]))
def echo(args):
    return tool_result(text_content("echo"), structured_content={"value": args["value"]})


@ext.tool(name="fail_with", description="Fail with exactly this JSON-RPC error",
          parameters=obj({"code": INT, "message": STR, "data": {}}, ["code", "message"]))
def fail_with(args):
    if "data" in args:
        raise ToolError(args["code"], args["message"], args["data"])
    raise ToolError(args["code"], args["message"])


@ext.tool(name="slow", description="Wait up to ms while watching cancellation",
          parameters=obj({"ms": {"type": "integer", "minimum": 0}}, ["ms"]))
def slow(args):
    if current_cancellation().wait(args["ms"] / 1000):
        raise Cancelled()
    return "slept"


@ext.tool(name="ignore_cancel",
          description="Report progress once, then block ms ignoring cancellation",
          parameters=obj({"ms": {"type": "integer", "minimum": 0}}, ["ms"]))
def ignore_cancel(args):
    if FeatureName.REQUEST_PROGRESS in ext.negotiated_features:
        ext.progress.report({"type": "status", "message": "ignoring cancellation",
                             "current": 1, "total": 1})
    time.sleep(args["ms"] / 1000)  # deliberately deaf to the cancellation token
    return "ignored"


@ext.tool(name="progress_n", description="Emit n status progress events",
          parameters=obj({"n": {"type": "integer", "minimum": 0}}, ["n"]))
def progress_n(args):
    n = args["n"]
    for i in range(1, n + 1):
        ext.progress.report({"type": "status", "message": f"step {i}", "current": i,
                             "total": n})
    return "done"


@ext.tool(name="print_stdout", description="Print to stdout and run a child that does too",
          parameters=obj({"text": STR}, ["text"]))
def print_stdout(args):
    print(args["text"], flush=True)
    import subprocess

    subprocess.run(["sh", "-c", "echo child-output"], check=False)
    return "printed"


@ext.tool(name="crash", description="Exit at once without answering",
          parameters=obj({"code": INT}))
def crash(args):
    os._exit(args.get("code", 3))


@ext.tool(name="callback_n", description="Make n sequential kv.get calls while serving",
          parameters=obj({"n": {"type": "integer", "minimum": 0}}, ["n"]))
def callback_n(args):
    for _ in range(args["n"]):
        ext.kv.get("callback", namespace=NAMESPACE)
    return tool_result(text_content("called"), structured_content={"calls": args["n"]})


@ext.tool(name="big_result", description="Return one text part of that many bytes",
          parameters=obj({"bytes": {"type": "integer", "minimum": 0}}, ["bytes"]))
def big_result(args):
    return "x" * args["bytes"]


@ext.tool(name="publish", description="Publish deterministic bytes inline or by path",
          parameters=obj({
              "bytes": {"type": "integer", "minimum": 0},
              "mode": {"enum": ["inline", "path"]},
              "corrupt": {"enum": ["size", "sha256"]},
              "mime_type": STR,
          }, ["bytes", "mode"]))
def publish(args):
    n = args["bytes"]
    # byte i is i % 251 (docs/design/fixture.md); repeating one period builds 16 MiB in
    # ~20 ms where a per-byte generator took ~500 ms and dominated the artifact benchmark.
    data = (_PERIOD * (n // len(_PERIOD) + 1))[:n]
    mime_type = args.get("mime_type", "application/octet-stream")
    size, digest = len(data), sha256(data)
    if args["mode"] == "inline":
        import base64  # only inline publishing needs it

        artifact_id = ext.artifacts.publish(
            mime_type=mime_type, data=base64.b64encode(data).decode("ascii"))["artifact_id"]
    else:
        path = os.path.join(os.environ["OCTET_EXTENSION_SCRATCH"], "fixture.bin")
        with open(path, "wb") as f:
            f.write(data)
        corrupt = args.get("corrupt")
        try:
            artifact_id = ext.artifacts.publish(
                mime_type=mime_type, path="fixture.bin",
                size=size + 1 if corrupt == "size" else size,
                sha256=sha256(data + b"corrupt") if corrupt == "sha256" else digest,
            )["artifact_id"]
        finally:
            # The host has its own copy once it answered: removing the file drops its
            # dirty pages, so a publish writes its bytes to disk once, not twice.
            os.remove(path)
    return tool_result(text_content("published"),
                       structured_content={"artifact_id": artifact_id, "size": size,
                                           "sha256": digest})


@ext.tool(name="register_dynamic", description="Register a tool that returns fixed text",
          parameters=obj({"name": STR, "text": STR}, ["name", "text"]))
def register_dynamic(args):
    text = args["text"]
    update = ext.catalog.register([{"name": args["name"], "description": f"Returns {text!r}",
                                    "handler": lambda _args: text}])
    return tool_result(text_content("registered"),
                       structured_content={"revision": update["revision"]})


@ext.tool(name="unregister_dynamic", description="Unregister a dynamic tool",
          parameters=obj({"name": STR}, ["name"]))
def unregister_dynamic(args):
    update = ext.catalog.unregister([args["name"]])
    return tool_result(text_content("unregistered"),
                       structured_content={"revision": update["revision"]})


REPLACE_PARAMS = obj({"tools": {"type": "array", "items": obj({"name": STR, "text": STR}, ["name", "text"])}},
                     ["tools"])


@ext.tool(name="replace_dynamic", description="Replace the whole dynamic catalog in one change",
          parameters=REPLACE_PARAMS)
def replace_dynamic(args):
    # The catalog becomes the tools given and replace_dynamic itself: a replacement is the
    # whole catalog, and the fixture must stay able to replace it again.
    def returning(text):
        return lambda _args: text
    itself = {"name": "replace_dynamic", "description": "Replace the whole dynamic catalog in one change",
              "handler": replace_dynamic, "parameters": REPLACE_PARAMS}
    update = ext.catalog.replace([itself] + [{"name": t["name"], "description": f"Returns {t['text']!r}",
                                            "handler": returning(t["text"])} for t in args["tools"]])
    return tool_result(text_content("replaced"),
                       structured_content={"revision": update["revision"]})


@ext.tool(name="ask", description="Confirm or request input",
          parameters=obj({"kind": {"enum": ["confirm", "input"]}, "prompt": STR,
                          "secret": {"type": "boolean"},
                          "options": {"type": "array", "items": obj(
                              {"value": STR, "label": STR, "description": STR},
                              ["value", "label"], closed=True)},
                          "allow_free_text": {"type": "boolean"}}, ["kind", "prompt"]))
def ask(args):
    if args["kind"] == "confirm":
        answer = {"answer": ext.ui.confirm(args["prompt"])["confirmed"]}
    else:
        value = ext.ui.request_input(args["prompt"], secret=args.get("secret", False),
                                     options=args.get("options"),
                                     allow_free_text=args.get("allow_free_text"))["value"]
        if args.get("secret", False):
            answer = {"answer_sha256": None if value is None else sha256(value.encode())}
        else:
            answer = {"answer": value}
    return tool_result(text_content("answered"), structured_content=answer)


@ext.tool(name="secret", description="Fetch a secret; return only its SHA-256",
          parameters=obj({"name": STR}, ["name"]))
def secret(args):
    value = ext.secrets.get(args["name"])["value"]
    return tool_result(text_content("secret"),
                       structured_content={"sha256": sha256(value.encode())})


@ext.tool(name="present", description="Publish a snapshot with n running activities",
          parameters=obj({"revision": INT, "activities": INT}, ["revision", "activities"]))
def present(args):
    ext.presentation.update({
        "revision": args["revision"],
        "activities": [{"id": f"a{i}", "label": f"activity {i}", "state": "running"}
                       for i in range(args["activities"])],
        "actions": [],
    })
    return "presented"


@ext.tool(name="spawn_child", description="Spawn one bounded child and wait briefly",
          parameters=obj({"task_name": STR, "message": STR, "key": STR},
                         ["task_name", "message", "key"]))
def spawn_child(args):
    child = ext.agents.spawn(
        args["task_name"], args["message"], idempotency_key=args["key"],
        policy={"tools": ["read"], "max_depth": 1, "max_concurrent_children": 1, "max_turns": 1,
                "max_tokens": None, "max_cost_microdollars": 0, "max_output_bytes": 4096,
                "timeout_ms": 10000},
    )
    settled = ext.agents.wait(timeout_ms=1000)
    return tool_result(text_content("spawned"),
                       structured_content={"agent_id": child["agent_id"],
                                           "timed_out": settled["timed_out"]})


@ext.tool(name="kv_commit", description="Pass through to the KV commit",
          parameters=obj({"preconditions": {"type": "array"}, "writes": {"type": "array"}},
                         ["preconditions", "writes"]))
def kv_commit(args):
    result = ext.kv.commit(args["writes"], preconditions=args["preconditions"])
    return tool_result(text_content("committed"), structured_content=result)


@ext.tool(name="kv_get", description="Pass through to kv.get",
          parameters=obj({"namespace": STR, "key": STR}, ["namespace", "key"]))
def kv_get(args):
    result = ext.kv.get(args["key"], namespace=args["namespace"])
    return tool_result(text_content("read"), structured_content=result)


@ext.migration(from_version=1)
def wrap_note(tx):
    """The KV migration state.kv_migration drives (only when the manifest declares
    [state] kv_version 2): the note becomes {"migrated": <old>}; a second run would nest."""
    note = tx.get("migration/note")
    if note is not None:
        tx.put("migration/note", {"migrated": note})


@ext.on_configure
def configure(settings, info):
    """The settings the config.* checks deliver: a note "refuse-me" is refused."""
    if settings.get("note") == "refuse-me":
        raise SettingsRefused('note "refuse-me" is refused')


@ext.tool(name="settings_in_force", description="The note in force and its revision, as note@revision",
          parameters=obj({}))
def settings_in_force(args):
    note = (ext.settings or {}).get("note", "")
    return f"{note}@{ext.settings_revision}"


@ext.tool(name="idempotency_key_seen", description="The call's idempotency key, as key=KEY",
          parameters=obj({}))
def idempotency_key_seen(args, context):
    return "key=" + (context["idempotency_key"] or "")


@ext.tool(name="arm_stuck_shutdown", description="Make on_shutdown block forever",
          parameters=obj({}))
def arm_stuck_shutdown(args):
    stuck_shutdown.set()
    return "armed"


# suite_args declares the schema of docs/design/fixture.md: schema.suite_verdicts compares
# the SDK validator's answers with the host's.
SUITE_ARGS = {
    "type": "object",
    "$defs": {"tag": {"type": "string", "minLength": 1}},
    "properties": {"tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}, "uniqueItems": True},
                   "step": {"type": "number", "multipleOf": 0.5},
                   "card": {"type": "string"}, "billing": {"type": "string"}},
    "dependentSchemas": {"card": {"required": ["billing"]}},
    "unevaluatedProperties": False,
}


@ext.tool(name="suite_args", description="Accepts exactly what its schema allows",
          parameters=SUITE_ARGS)
def suite_args(args):
    return "accepted"


@ext.tool(name="typed", description="Strictly typed arguments and output",
          parameters=obj({"count": INT, "label": STR}, ["count", "label"], closed=True),
          output_schema=obj({"count": INT}, ["count"]))
def typed(args):
    return tool_result(text_content(f"{args['label']}:{args['count']}"),
                       structured_content={"count": args["count"]})


@ext.tool(name="notify", description="Show a notification",
          parameters=obj({"message": STR, "level": {"enum": ["info", "success", "warning", "error"]},
                          "title": STR}, ["message", "level"]))
def notify(args):
    ext.ui.notify(args["message"], level=args["level"], title=args.get("title"))
    return "notified"


@ext.tool(name="notify_n",
          description="Send n info notifications of about size characters, then answer {sent: n}",
          parameters=obj({"n": {"type": "integer", "minimum": 0},
                          "size": {"type": "integer", "minimum": 0}}, ["n", "size"]))
def notify_n(args):
    for i in range(1, args["n"] + 1):
        ext.ui.notify(f"note {i}".ljust(args["size"], "."), level="info")
    return tool_result(text_content("notified"), structured_content={"sent": args["n"]})


@ext.tool(name="contribute", description="Push a context item and a status line",
          parameters=obj({"text": STR}, ["text"]))
def contribute(args):
    ext.ui.contribute_context([{"label": "fixture", "content": args["text"],
                                "placement": "prompt_prefix"}])
    ext.ui.contribute_status("status", args["text"], priority=1)
    return "contributed"


@ext.tool(name="policy", description="Evaluate an intent; redeem an ask's approval token",
          parameters=obj({"operation": STR}, ["operation"]))
def policy(args):
    intent = {"kind": "fixture", "operation": args["operation"]}
    first = ext.policy.evaluate(intent)
    redeemed = None
    if first["decision"] == "ask" and first.get("approval_token"):
        redeemed = ext.policy.evaluate(intent, approval_token=first["approval_token"])["decision"]
    return tool_result(text_content("evaluated"),
                       structured_content={"decision": first["decision"], "redeemed": redeemed})


@ext.tool(name="kv_list", description="Pass through to kv.list",
          parameters=obj({"namespace": STR, "prefix": STR, "cursor": STR,
                          "limit": {"type": "integer", "minimum": 1, "maximum": 1000}},
                         ["namespace", "prefix"]))
def kv_list(args):
    result = ext.kv.list(args["prefix"], namespace=args["namespace"],
                         cursor=args.get("cursor"), limit=args.get("limit", 100))
    return tool_result(text_content("listed"), structured_content=result)


@ext.tool(name="agent_op", description="One agent/* call after spawn",
          parameters=obj({"op": {"enum": ["message", "follow_up", "models", "list", "interrupt",
                                          "wait"]},
                          "target": STR, "message": STR, "query": STR, "limit": INT}, ["op"]))
def agent_op(args):
    op = args["op"]
    if op == "message":
        result = ext.agents.message(args["target"], args["message"])
    elif op == "follow_up":
        result = ext.agents.follow_up(args["target"], args["message"])
    elif op == "models":
        result = ext.agents.models(query=args.get("query") or None, limit=args.get("limit", 50))
    elif op == "list":
        result = ext.agents.list()
    elif op == "interrupt":
        result = ext.agents.interrupt(args["target"])
    else:
        result = {"timed_out": ext.agents.wait(timeout_ms=1000)["timed_out"]}
    return tool_result(text_content("steered"), structured_content=result)


def slow_prompt(prompt):
    """Wait when a prompt (or rendered echo value) is "slow:<ms>"; fail uncaught when it is
    "fail:<message>" (fixture.md)."""
    if isinstance(prompt, str) and prompt.startswith("fail:"):
        raise RuntimeError(prompt[len("fail:"):])
    if isinstance(prompt, str) and prompt.startswith("slow:"):
        if current_cancellation().wait(int(prompt[len("slow:"):]) / 1000):
            raise Cancelled()


@ext.command(name="fixture_cmd", description="Join the arguments")
def fixture_cmd(arguments):
    return {"text": " ".join(arguments)}


@ext.command(name="slow_cmd", description="Wait the first argument in ms")
def slow_cmd(arguments):
    arg = arguments[0] if arguments else "0"
    if arg.startswith("fail:"):
        raise RuntimeError(arg[len("fail:"):])
    ext.progress.report({"type": "status", "message": "waiting"})
    if current_cancellation().wait(int(arg) / 1000):
        raise Cancelled()
    return {"text": "slept"}


@ext.hook("before_prompt")
def before_prompt(payload):
    slow_prompt(payload.get("prompt"))
    if payload.get("prompt") == "hook:block":
        return {"disposition": {"action": "block", "message": "blocked by the fixture"}}
    if payload.get("prompt") == "hook:rewrite":
        return {"disposition": {"action": "replace", "prompt": "rewritten by the fixture"}}
    return {"disposition": {"action": "continue"}}


# The tool hooks answer the dispositions hooks.dispositions_applied expects the host to
# apply, chosen by the call's "value" argument (docs/design/fixture.md).
@ext.hook("before_tool_call")
def before_tool_call(payload):
    value = payload.get("arguments", {}).get("value")
    if value == "hook:block":
        return {"disposition": {"action": "block", "message": "blocked by the fixture"}}
    if value == "hook:rewrite":
        return {"disposition": {"action": "replace",
                                "arguments": {"value": "rewritten by the fixture"}}}
    return {"disposition": {"action": "continue"}}


@ext.hook("after_tool_call")
def after_tool_call(payload):
    value = payload.get("arguments", {}).get("value")
    if value == "hook:replace":
        return {"disposition": {"action": "replace", "output": "replaced by the fixture"}}
    if value == "hook:withhold":
        return {"disposition": {"action": "block", "message": "withheld by the fixture"}}
    return {}


@ext.context
def context(params):
    slow_prompt(params.get("prompt"))
    return [{"label": "fixture", "content": "fixture context", "placement": "system_suffix"}]


@ext.status("status")
def status(params):
    slow_prompt((params.get("resource_owner") or {}).get("session_id"))
    return {"surface": "status", "text": "fixture ready", "priority": 0}


@ext.renderer("echo")
def render_echo(params):
    slow_prompt((params.get("arguments") or {}).get("value"))
    return {"segments": [{"text": "echo", "style_role": None}]}


_probe_children: list = []
_probe_held: list = []


@ext.tool(name="sandbox_probe", description="Try one read, write, connect, spawn or allocation",
          parameters=obj({"op": {"enum": ["read", "write", "connect", "udp", "spawn", "reap",
                                          "allocate", "release", "orphan"]},
                          "target": {"type": "string", "maxLength": 4096},
                          "n": {"type": "integer", "minimum": 0, "maximum": 4096}}, ["op"]))
def sandbox_probe(args):
    """Reports what happened; the sandbox.* checks find the evidence themselves."""
    import socket
    import subprocess

    op, target, n = args["op"], args.get("target", ""), args.get("n", 0)
    res: dict = {"ok": True}
    try:
        if op == "read":
            with open(target, "rb") as f:
                res["data"] = f.read(64).decode("utf-8", "replace")
        elif op == "write":
            with open(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
                f.write(b"octet-probe")
        elif op in ("connect", "udp"):
            host, _, port = target.rpartition(":")
            kind = socket.SOCK_STREAM if op == "connect" else socket.SOCK_DGRAM
            with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, kind) as s:
                s.settimeout(2)
                s.connect((host.strip("[]"), int(port)))
                s.send(b"probe\n")
        elif op == "spawn":
            res["count"] = 0
            for _ in range(min(n, 1024)):
                _probe_children.append(subprocess.Popen(["sleep", "60"]))
                res["count"] += 1
        elif op == "reap":
            res["count"] = len(_probe_children)
            while _probe_children:
                child = _probe_children.pop()
                child.kill()
                child.wait()
        elif op == "allocate":
            _probe_held[:] = [bytearray(min(n, 4096) << 20)]
        elif op == "release":
            _probe_held.clear()
        elif op == "orphan":
            subprocess.run(["sh", "-c", "setsid sh -c 'sleep 120; :' \"$0\" </dev/null >/dev/null 2>&1 &",
                            target], check=True)
    except (OSError, MemoryError, ValueError, subprocess.SubprocessError) as e:
        res.update(ok=False, detail=(str(e) or type(e).__name__)[:200])
    return tool_result(text_content("probed"), structured_content=res)


@ext.on_lifecycle("turn_settled")
def turn_settled(event):
    ext.log.info("turn settled", **event)


@ext.on_shutdown
def on_shutdown():
    if stuck_shutdown.is_set():
        threading.Event().wait()  # blocks forever: the SDK's drain bound must still hold


# Guarded so the SDK's tests can also load this module and serve ``ext`` in-process (the
# loopback half of their two-transport matrix); the host always runs it as a script.
if __name__ == "__main__":
    ext.run()
