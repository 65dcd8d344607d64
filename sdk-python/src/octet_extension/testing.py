"""Run an extension against a scripted host: in-process (``LoopbackHost``) or as a real
subprocess (``ProcessHost``). Both record every frame and answer every reverse service from
in-memory scripts, so tests can assert exact wire behaviour.

    from octet_extension.testing import LoopbackHost

    with LoopbackHost(ext, secrets={"app.token": "s3cret"}) as host:
        assert host.call_tool("hello_world", {"name": "Ada"})["content"][0]["text"] == ...
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import itertools
import json
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ._errors import RemoteError, error_from_wire
from ._extension import Extension
from ._features import FEATURE_RULES
from ._generated.dispatch import (
    METHOD_AGENT_FOLLOW_UP,
    METHOD_AGENT_INTERRUPT,
    METHOD_AGENT_LIST,
    METHOD_AGENT_MESSAGE,
    METHOD_AGENT_MODELS,
    METHOD_AGENT_SPAWN,
    METHOD_AGENT_WAIT,
    METHOD_ARTIFACT_PUBLISH,
    METHOD_CANCEL_REQUEST,
    METHOD_CONFIRMATION_REQUEST,
    METHOD_INITIALIZE,
    METHOD_INPUT_REQUEST,
    METHOD_KV_COMMIT,
    METHOD_KV_GET,
    METHOD_KV_LIST,
    METHOD_POLICY_EVALUATE,
    METHOD_SECRET_GET,
    METHOD_SHUTDOWN,
    METHOD_TOOL_CALL,
    METHOD_TOOLS_REGISTER,
    METHOD_TOOLS_UNREGISTER,
)

__all__ = ["NO_REPLY", "HostError", "LoopbackHost", "ProcessHost", "Response", "manifest_for"]

# The offer of a host where every condition holds, from the schema's negotiation table (every
# optional or conditional feature of any version; the SDK ignores what its version lacks).
ALL_OPTIONAL = tuple(name for name, rule in FEATURE_RULES.items()
                     if any(o != "required" for o in rule["offer"].values()))
REQUIRED = tuple(name for name, rule in FEATURE_RULES.items()
                 if "required" in rule["offer"].values())
NO_REPLY = object()
"""Return this from a scripted service to leave the extension's request unanswered."""

Script = Callable[[dict[str, Any]], Any]


class HostError(Exception):
    """Raise from a scripted service to answer the extension's request with an error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def manifest_for(ext: Extension, *, name: str = "test-extension", api_version: str = "0.4",
                 secrets: Iterable[str] = ()) -> dict[str, Any]:
    """A manifest declaring exactly what ``ext`` registered (as the host would send it)."""
    contributes: dict[str, Any] = {
        "tools": list(ext._tools), "commands": list(ext._commands), "hooks": list(ext._hooks),
        "ui": list(ext._status), "context": ext._context is not None,
        "tool_renderers": list(ext._renderers), "notifications": True, "confirmations": True,
    }
    if api_version != "0.1":
        contributes["presentation"] = True
    return {
        "name": name, "version": "0.1.0", "api_version": api_version,
        "entrypoint": {"command": "run"},
        "capabilities": {"secrets": list(secrets)},
        "contributes": contributes,
    }


class Response(dict[str, Any]):
    """A response frame; ``.result`` or ``.error`` for convenience."""

    @property
    def result(self) -> Any:
        return self.get("result")

    @property
    def error(self) -> dict[str, Any] | None:
        return self.get("error")


class _Pending:
    def __init__(self, rid: int) -> None:
        self.id = rid
        self.event = threading.Event()
        self.response: Response | None = None

    def wait(self, timeout: float = 10.0) -> Response:
        if not self.event.wait(timeout):
            raise TimeoutError(f"no response to host request {self.id} within {timeout}s")
        assert self.response is not None
        return self.response


def _canonical(value: Any) -> str:
    return hashlib.sha256(
        json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


class _ScriptedHost:
    """The host side of one connection: sends requests, records frames, serves the extension."""

    def __init__(
        self,
        *,
        api_version: str = "0.4",
        manifest: dict[str, Any] | None = None,
        optional_features: Sequence[str] = ALL_OPTIONAL,
        required_features: Sequence[str] = REQUIRED,
        max_concurrent_requests: int = 4,
        confirmations: Iterable[bool] | Script | None = None,
        inputs: Iterable[str | None] | Script | None = None,
        secrets: Mapping[str, str] | None = None,
        policy: Script | None = None,
        scratch_dir: str | os.PathLike[str] | None = None,
        services: Mapping[str, Script] | None = None,
        initialize: bool = True,
        timeout: float = 10.0,
    ) -> None:
        self.api_version = api_version
        self.manifest = manifest
        self.optional_features = list(optional_features)
        self.required_features = list(required_features)
        self.max_concurrent_requests = max_concurrent_requests
        self._confirmations = confirmations if callable(confirmations) else \
            iter(list(confirmations or []))
        self._inputs = inputs if callable(inputs) else iter(list(inputs or []))
        self.secrets = dict(secrets or {})
        self.policy = policy
        self.scratch_dir = Path(scratch_dir) if scratch_dir is not None else None
        self.services: dict[str, Script] = dict(services or {})
        self.auto_initialize = initialize
        self.timeout = timeout
        self.frames: list[tuple[str, dict[str, Any]]] = []
        self.raw_lines: list[bytes] = []
        self.kv: dict[tuple[str, str], Any] = {}
        self.artifacts: dict[str, bytes] = {}
        self.agents: dict[str, dict[str, Any]] = {}
        self.catalog_revision = 0
        self.catalog: list[str] = []
        self.initialize_result: dict[str, Any] | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._lock = threading.Condition()
        self._to_ext: int = -1
        self._from_ext: int = -1
        self._read_thread: threading.Thread | None = None
        self.closed = threading.Event()

    # ---- wiring ----------------------------------------------------------------------------

    def _attach(self, to_ext: int, from_ext: int) -> None:
        self._to_ext, self._from_ext = to_ext, from_ext
        self._read_thread = threading.Thread(target=self._read, name="host-reader", daemon=True)
        self._read_thread.start()

    def _read(self) -> None:
        with open(self._from_ext, "rb", closefd=False) as stream:
            for line in stream:
                self.raw_lines.append(line)
                try:
                    msg = json.loads(line)
                except ValueError:
                    with self._lock:
                        self.frames.append(("out", {"invalid": line.decode("utf-8", "replace")}))
                        self._lock.notify_all()
                    continue
                with self._lock:
                    self.frames.append(("out", msg))
                    self._lock.notify_all()
                if "method" not in msg:
                    pending = self._pending.pop(msg.get("id"), None)
                    if pending is not None:
                        pending.response = Response(msg)
                        pending.event.set()
                elif "id" in msg:
                    self._serve(msg)
        self.closed.set()
        with self._lock:
            self._lock.notify_all()

    def _write(self, msg: dict[str, Any] | bytes) -> None:
        if isinstance(msg, bytes):
            data = msg
        else:
            with self._lock:
                self.frames.append(("in", msg))
            data = json.dumps(msg, separators=(",", ":")).encode() + b"\n"
        os.write(self._to_ext, data)

    # ---- driving the extension -------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        """Write raw bytes to the extension's stdin (for malformed-frame tests)."""
        self._write(data)

    def start_request(self, method: str, params: dict[str, Any] | None = None,
                      rid: int | None = None) -> _Pending:
        rid = next(self._ids) if rid is None else rid
        pending = _Pending(rid)
        self._pending[rid] = pending
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self._write(msg)
        return pending

    def request(self, method: str, params: dict[str, Any] | None = None) -> Response:
        """Send a request and wait for its response frame."""
        return self.start_request(method, params).wait(self.timeout)

    def sync(self) -> None:
        """Return once every frame the extension queued before this call has arrived.

        Its writer is FIFO, so the answer to one more request (an unknown method, answered
        -32601 by the reader) comes after everything queued earlier.
        """
        self.request("octet.testing/sync", {})

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self._write(msg)

    def cancel(self, rid: int | str) -> None:
        self.notify(METHOD_CANCEL_REQUEST, {"id": rid})

    def initialize(self, **overrides: Any) -> Response:
        params = self.initialize_params()
        params.update(overrides)
        response = self.request(METHOD_INITIALIZE, params)
        if response.error is None:
            self.initialize_result = response.result
            # Epoch 0 of the host's catalog is what initialize declared.
            self.catalog = [tool["name"] for tool in response.result.get("tools", [])]
            self.catalog_revision = 0
        return response

    def initialize_params(self) -> dict[str, Any]:
        manifest = self.manifest or {}
        params: dict[str, Any] = {
            "api_version": self.api_version,
            "octet_version": "0.8.0",
            "extension": {"name": manifest.get("name", "test-extension"),
                          "version": manifest.get("version", "0.1.0"), "dir": ".",
                          "manifest_path": "./extension.toml", "source": "explicit"},
            "manifest": manifest,
            "workspace": {"root": os.getcwd(), "trusted": True},
        }
        if self.api_version != "0.1":
            params["protocol"] = {
                "version": self.api_version,
                "required_features": self.required_features,
                "optional_features": self.optional_features,
                "limits": {"max_concurrent_requests": self.max_concurrent_requests},
            }
        return params

    @property
    def features(self) -> list[str]:
        assert self.initialize_result is not None
        return list(self.initialize_result.get("protocol", {}).get("features", []))

    def call_tool(self, name: str, arguments: dict[str, Any] | None = None,
                  **extra: Any) -> Any:
        """Call a tool; returns its result or raises RemoteError with the exact error."""
        params = {"name": name, "arguments": arguments if arguments is not None else {}, **extra}
        response = self.request(METHOD_TOOL_CALL, params)
        if response.error is not None:
            err = response.error
            raise error_from_wire(err)
        return response.result

    def start_tool(self, name: str, arguments: dict[str, Any] | None = None,
                   **extra: Any) -> _Pending:
        params = {"name": name, "arguments": arguments if arguments is not None else {}, **extra}
        return self.start_request(METHOD_TOOL_CALL, params)

    def shutdown(self, deadline_ms: int | None = None) -> Response:
        params = {"reason": "host_exit"}
        if deadline_ms is not None:
            params["deadline_ms"] = deadline_ms  # type: ignore[assignment]
        return self.request(METHOD_SHUTDOWN, params)

    def close_stdin(self) -> None:
        """Give the extension EOF."""
        if self._to_ext >= 0:
            os.close(self._to_ext)
            self._to_ext = -1

    def notifications(self, method: str) -> list[dict[str, Any]]:
        """Params of every notification the extension sent with ``method`` (after a sync)."""
        if not self.closed.is_set() and self._to_ext >= 0:
            self.sync()
        with self._lock:
            return [m.get("params", {}) for d, m in self.frames
                    if d == "out" and m.get("method") == method and "id" not in m]

    def requests_from_extension(self, method: str) -> list[dict[str, Any]]:
        with self._lock:
            return [m for d, m in self.frames
                    if d == "out" and m.get("method") == method and "id" in m]

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool],
                 timeout: float | None = None) -> dict[str, Any]:
        """Block until the extension sends a frame matching ``predicate``; return it."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        seen = 0
        with self._lock:
            while True:
                for direction, msg in self.frames[seen:]:
                    if direction == "out" and predicate(msg):
                        return msg
                seen = len(self.frames)
                left = deadline - time.monotonic()
                if left <= 0 or self.closed.is_set():
                    raise TimeoutError("the extension never sent the expected frame")
                self._lock.wait(left)  # woken by every frame the reader records

    # ---- the scripted reverse services -----------------------------------------------------

    def _serve(self, msg: dict[str, Any]) -> None:
        method, params, rid = msg["method"], msg.get("params", {}), msg["id"]
        script = self.services.get(method)
        builtin = _BUILTIN.get(method)
        try:
            if script is not None:
                result = script(params)
            elif builtin is not None:
                result = builtin(self, params)
            else:
                raise HostError(-32601, f"method {method!r} is not served by the test host",
                                {"method": method})
        except HostError as exc:
            error: dict[str, Any] = {"code": exc.code, "message": exc.message}
            if exc.data is not None:
                error["data"] = exc.data
            self._write({"jsonrpc": "2.0", "id": rid, "error": error})
            return
        if result is NO_REPLY:
            return
        self._write({"jsonrpc": "2.0", "id": rid, "result": result})

    def _confirm(self, params: dict[str, Any]) -> Any:
        script = self._confirmations
        answer = script(params) if callable(script) else next(script, False)
        return {"confirmed": bool(answer)}

    def _input(self, params: dict[str, Any]) -> Any:
        script = self._inputs
        return {"value": script(params) if callable(script) else next(script, None)}

    def _secret(self, params: dict[str, Any]) -> Any:
        value = self.secrets.get(params.get("name", ""))
        if value is None:
            raise HostError(-32004, "secret is unavailable")
        return {"value": value}

    def _policy(self, params: dict[str, Any]) -> Any:
        return self.policy(params) if self.policy else {"decision": "deny"}

    def _artifact(self, params: dict[str, Any]) -> Any:
        if "data" in params:
            data = base64.b64decode(params["data"])
        else:
            root = self.scratch_dir
            if root is None:
                raise HostError(-32002, "no scratch directory configured")
            data = (root / params["path"]).read_bytes()
            if len(data) != params["size"]:
                raise HostError(-32602, f"size mismatch: file has {len(data)} bytes",
                                {"path": "size"})
            if hashlib.sha256(data).hexdigest() != params["sha256"]:
                raise HostError(-32602, "sha256 mismatch", {"path": "sha256"})
        artifact_id = f"artifact-{len(self.artifacts) + 1}"
        self.artifacts[artifact_id] = data
        return {"artifact_id": artifact_id, "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest()}

    def _register(self, params: dict[str, Any]) -> Any:
        for tool in params["tools"]:
            if tool["name"] not in self.catalog:
                self.catalog.append(tool["name"])
        self.catalog_revision += 1
        return {"revision": self.catalog_revision, "tools": list(self.catalog)}

    def _unregister(self, params: dict[str, Any]) -> Any:
        self.catalog = [n for n in self.catalog if n not in params["names"]]
        self.catalog_revision += 1
        return {"revision": self.catalog_revision, "tools": list(self.catalog)}

    def _own(self, namespace: str) -> None:
        name = (self.manifest or {}).get("name", "test-extension")
        if namespace != name and not namespace.startswith(name + "."):
            raise HostError(-32602, f"namespace {namespace!r} belongs to another extension",
                            {"path": "namespace"})

    def _kv_get(self, params: dict[str, Any]) -> Any:
        self._own(params["namespace"])
        key = (params["namespace"], params["key"])
        if key not in self.kv:
            return {"found": False}
        return {"found": True, "value": self.kv[key], "version": _canonical(self.kv[key])}

    def _kv_list(self, params: dict[str, Any]) -> Any:
        self._own(params["namespace"])
        keys = sorted(k for ns, k in self.kv if ns == params["namespace"]
                      and k.startswith(params.get("prefix", "")))
        start = int(params.get("cursor") or 0)
        limit = params.get("limit", 100)
        page = keys[start:start + limit]
        result: dict[str, Any] = {"entries": [
            {"key": k, "value": self.kv[(params["namespace"], k)],
             "version": _canonical(self.kv[(params["namespace"], k)])} for k in page]}
        if start + limit < len(keys):
            result["next_cursor"] = str(start + limit)
        return result

    def _kv_commit(self, params: dict[str, Any]) -> Any:
        for item in params.get("preconditions", []) + params["writes"]:
            self._own(item["namespace"])
        for pre in params.get("preconditions", []):
            key = (pre["namespace"], pre["key"])
            actual = _canonical(self.kv[key]) if key in self.kv else None
            expected = None if pre.get("absent") else pre.get("version")
            if actual != expected:
                raise HostError(-32005, f"precondition failed for {pre['key']!r}",
                                {"namespace": pre["namespace"], "key": pre["key"],
                                 "expected": expected, "actual": actual})
        versions = []
        for write in params["writes"]:
            key = (write["namespace"], write["key"])
            if write["op"] == "put":
                self.kv[key] = write["value"]
                versions.append({"namespace": key[0], "key": key[1],
                                 "version": _canonical(write["value"])})
            else:
                self.kv.pop(key, None)
                versions.append({"namespace": key[0], "key": key[1], "version": None})
        return {"versions": versions}

    def _agent_spawn(self, params: dict[str, Any]) -> Any:
        for record in self.agents.values():
            if record["idempotency_key"] == params["idempotency_key"]:
                return {"agent_id": record["agent_id"], "session": record["session"],
                        "state": record["state"], "created": False}
        agent_id = f"agent-{len(self.agents) + 1}"
        record = {"agent_id": agent_id, "session": f"agent-session:{agent_id}",
                  "task_name": params["task_name"], "idempotency_key": params["idempotency_key"],
                  "state": "running", "policy": params["policy"], "created_at_ms": 0,
                  "turns": 0, "usage": {"input_tokens": 0, "output_tokens": 0,
                                        "cost_microdollars": 0},
                  "timed_out": False, "messages": [params["message"]]}
        self.agents[agent_id] = record
        return {"agent_id": agent_id, "session": record["session"], "state": "running",
                "created": True}

    def _agent_target(self, params: dict[str, Any]) -> dict[str, Any]:
        record = self.agents.get(params["target"])
        if record is None:
            raise HostError(-32002, f"agent {params['target']!r} is not owned by this parent")
        return record

    def _agent_message(self, params: dict[str, Any]) -> Any:
        self._agent_target(params)["messages"].append(params["message"])
        return {"accepted": True}

    def _agent_list(self, _params: dict[str, Any]) -> Any:
        return {"agents": [{k: v for k, v in r.items() if k != "messages"}
                           for r in self.agents.values()]}

    def _agent_wait(self, params: dict[str, Any]) -> Any:
        for record in self.agents.values():
            if record["state"] == "running":
                record["state"] = "settled"
                record["output"] = "done"
        return {"timed_out": False, **self._agent_list(params)}

    def _agent_interrupt(self, params: dict[str, Any]) -> Any:
        self._agent_target(params)["state"] = "interrupted"
        return {"interrupted": True}

    def _agent_models(self, params: dict[str, Any]) -> Any:
        models = [{"provider": "test", "model": f"model-{i}"} for i in range(3)]
        return {"models": models[: params.get("limit", 50)]}


_BUILTIN: dict[str, Callable[[_ScriptedHost, dict[str, Any]], Any]] = {
    METHOD_CONFIRMATION_REQUEST: _ScriptedHost._confirm,
    METHOD_INPUT_REQUEST: _ScriptedHost._input,
    METHOD_SECRET_GET: _ScriptedHost._secret,
    METHOD_POLICY_EVALUATE: _ScriptedHost._policy,
    METHOD_ARTIFACT_PUBLISH: _ScriptedHost._artifact,
    METHOD_TOOLS_REGISTER: _ScriptedHost._register,
    METHOD_TOOLS_UNREGISTER: _ScriptedHost._unregister,
    METHOD_KV_GET: _ScriptedHost._kv_get,
    METHOD_KV_LIST: _ScriptedHost._kv_list,
    METHOD_KV_COMMIT: _ScriptedHost._kv_commit,
    METHOD_AGENT_SPAWN: _ScriptedHost._agent_spawn,
    METHOD_AGENT_MESSAGE: _ScriptedHost._agent_message,
    METHOD_AGENT_FOLLOW_UP: _ScriptedHost._agent_message,
    METHOD_AGENT_LIST: _ScriptedHost._agent_list,
    METHOD_AGENT_WAIT: _ScriptedHost._agent_wait,
    METHOD_AGENT_INTERRUPT: _ScriptedHost._agent_interrupt,
    METHOD_AGENT_MODELS: _ScriptedHost._agent_models,
}


class LoopbackHost(_ScriptedHost):
    """Serve ``ext`` in this process over a pair of pipes (its real reader/writer threads)."""

    def __init__(self, ext: Extension, *, secret_names: Iterable[str] | None = None,
                 name: str = "test-extension", **options: Any) -> None:
        super().__init__(**options)
        self.ext = ext
        if self.manifest is None:
            names = secret_names if secret_names is not None else self.secrets.keys()
            self.manifest = manifest_for(ext, name=name, api_version=self.api_version,
                                         secrets=names)
        self.exit_code: int | None = None
        self._serve_thread: threading.Thread | None = None
        self._fds: list[int] = []

    def __enter__(self) -> LoopbackHost:
        ext_in, host_out = os.pipe()
        host_in, ext_out = os.pipe()
        self._fds = [ext_in, ext_out, host_in]

        def serve() -> None:
            try:
                self.exit_code = self.ext.serve(ext_in, ext_out, api_version=self.api_version)
            finally:
                os.close(ext_out)  # EOF for the host reader

        self._serve_thread = threading.Thread(target=serve, name="loopback-extension",
                                              daemon=True)
        self._serve_thread.start()
        self._attach(host_out, host_in)
        if self.auto_initialize:
            response = self.initialize()
            if response.error is not None:
                self.__exit__(None, None, None)
                raise RemoteError(response.error["code"], response.error["message"],
                                  response.error.get("data"))
        return self

    def wait_exit(self, timeout: float | None = None) -> int | None:
        """Wait for the extension's serve() to return; its exit code (None if still running)."""
        assert self._serve_thread is not None
        self._serve_thread.join(self.timeout if timeout is None else timeout)
        return None if self._serve_thread.is_alive() else self.exit_code

    def __exit__(self, *_: Any) -> None:
        self.close_stdin()
        self.wait_exit()
        if self._read_thread is not None:
            self._read_thread.join(self.timeout)
        session = self.ext._session
        if session is not None:
            # EOF reached its reader (close_stdin); wait for it before closing its fd, or a
            # later pipe could reuse the number under a still-running reader.
            session.reader_thread.join(self.timeout)
            if session.reader_thread.is_alive():
                return  # leak the fds rather than risk that
        for fd in self._fds:
            if fd != self._fds[1]:
                with contextlib.suppress(OSError):
                    os.close(fd)


class ProcessHost(_ScriptedHost):
    """Run an extension as a subprocess (``argv`` in ``cwd``) and drive its stdio."""

    def __init__(self, argv: Sequence[str], *, cwd: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.argv = list(argv)
        self.cwd = cwd
        self.env = dict(os.environ if env is None else env)
        self.env.setdefault("OCTET_EXTENSION_API_VERSION", self.api_version)
        if self.scratch_dir is not None:
            self.env.setdefault("OCTET_EXTENSION_SCRATCH", str(self.scratch_dir))
        self.process: subprocess.Popen[bytes] | None = None
        self.stderr_lines: list[str] = []

    def __enter__(self) -> ProcessHost:
        self.process = subprocess.Popen(
            self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        self._attach(self.process.stdin.fileno(), self.process.stdout.fileno())
        if self.auto_initialize:
            response = self.initialize()
            if response.error is not None:
                self.__exit__(None, None, None)
                raise RemoteError(response.error["code"], response.error["message"],
                                  response.error.get("data"))
        return self

    def _drain_stderr(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace"))

    def close_stdin(self) -> None:
        if self.process is not None and self.process.stdin and not self.process.stdin.closed:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        self._to_ext = -1

    def wait_exit(self, timeout: float | None = None) -> int | None:
        assert self.process is not None
        try:
            code = self.process.wait(self.timeout if timeout is None else timeout)
        except subprocess.TimeoutExpired:
            return None
        # Everything the process wrote to stderr is in stderr_lines once this returns.
        self._stderr_thread.join(self.timeout)
        return code

    def __exit__(self, *_: Any) -> None:
        if self.process is None:
            return
        self.close_stdin()
        if self.wait_exit() is None:
            self.process.kill()
            self.process.wait()
        if self._read_thread is not None:
            self._read_thread.join(self.timeout)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

