"""The host side of one scripted connection: requests, recorded frames, the handshake."""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._errors import error_from_wire
from .._extension import Extension
from .._generated._features import FEATURE_RULES
from .._generated.dispatch import (
    METHOD_CANCEL_REQUEST,
    METHOD_INITIALIZE,
    METHOD_SHUTDOWN,
    METHOD_TOOL_CALL,
)
from ._services import Script, ScriptedServices

# The offer of a host where every condition holds, from the schema's negotiation table (every
# optional or conditional feature of any version; the SDK ignores what its version lacks).
ALL_OPTIONAL = tuple(name for name, rule in FEATURE_RULES.items()
                     if any(o != "required" for o in rule["offer"].values()))
REQUIRED = tuple(name for name, rule in FEATURE_RULES.items()
                 if "required" in rule["offer"].values())


def manifest_for(ext: Extension, *, name: str = "test-extension", api_version: str = "0.4",
                 secrets: Iterable[str] = ()) -> dict[str, Any]:
    """A manifest declaring exactly what ``ext`` registered (as the host would send it)."""
    declared = ext._declared
    contributes: dict[str, Any] = {
        "tools": list(declared.tools), "commands": list(declared.commands),
        "hooks": list(declared.hooks), "ui": list(declared.status),
        "context": declared.context is not None, "tool_renderers": list(declared.renderers),
        "notifications": True, "confirmations": True,
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


class _ScriptedHost(ScriptedServices):
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
            # Revision 0 of the host's catalog is what initialize declared.
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
