"""The scripted reverse services of the testing hosts: every extension-to-host method a
test host answers from its in-memory state (secrets, artifacts, catalogs, KV, agents)."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .._generated.dispatch import (
    METHOD_AGENT_FOLLOW_UP,
    METHOD_AGENT_INTERRUPT,
    METHOD_AGENT_LIST,
    METHOD_AGENT_MESSAGE,
    METHOD_AGENT_MODELS,
    METHOD_AGENT_SPAWN,
    METHOD_AGENT_WAIT,
    METHOD_ARTIFACT_PUBLISH,
    METHOD_CONFIRMATION_REQUEST,
    METHOD_INPUT_REQUEST,
    METHOD_KV_COMMIT,
    METHOD_KV_GET,
    METHOD_KV_LIST,
    METHOD_POLICY_EVALUATE,
    METHOD_SECRET_GET,
    METHOD_TOOLS_REGISTER,
    METHOD_TOOLS_REPLACE,
    METHOD_TOOLS_UNREGISTER,
)

NO_REPLY = object()
"""Return this from a scripted service to leave the extension's request unanswered."""
Script = Callable[[dict[str, Any]], Any]


class HostError(Exception):
    """Raise from a scripted service to answer the extension's request with an error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def _canonical(value: Any) -> str:
    return hashlib.sha256(
        json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


class ScriptedServices:
    """The service half of a scripted host; _ScriptedHost (_scripted.py) holds the state."""

    manifest: dict[str, Any] | None
    services: dict[str, Script]
    secrets: dict[str, str]
    policy: Script | None
    scratch_dir: Path | None
    kv: dict[tuple[str, str], Any]
    artifacts: dict[str, bytes]
    agents: dict[str, dict[str, Any]]
    catalog_revision: int
    catalog: list[str]
    _confirmations: Iterator[bool] | Script
    _inputs: Iterator[str | None] | Script

    def _write(self, msg: dict[str, Any] | bytes) -> None:
        raise NotImplementedError


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

    def _replace(self, params: dict[str, Any]) -> Any:
        self.catalog = [tool["name"] for tool in params["tools"]]
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


_BUILTIN: dict[str, Callable[[ScriptedServices, dict[str, Any]], Any]] = {
    METHOD_CONFIRMATION_REQUEST: ScriptedServices._confirm,
    METHOD_INPUT_REQUEST: ScriptedServices._input,
    METHOD_SECRET_GET: ScriptedServices._secret,
    METHOD_POLICY_EVALUATE: ScriptedServices._policy,
    METHOD_ARTIFACT_PUBLISH: ScriptedServices._artifact,
    METHOD_TOOLS_REGISTER: ScriptedServices._register,
    METHOD_TOOLS_UNREGISTER: ScriptedServices._unregister,
    METHOD_TOOLS_REPLACE: ScriptedServices._replace,
    METHOD_KV_GET: ScriptedServices._kv_get,
    METHOD_KV_LIST: ScriptedServices._kv_list,
    METHOD_KV_COMMIT: ScriptedServices._kv_commit,
    METHOD_AGENT_SPAWN: ScriptedServices._agent_spawn,
    METHOD_AGENT_MESSAGE: ScriptedServices._agent_message,
    METHOD_AGENT_FOLLOW_UP: ScriptedServices._agent_message,
    METHOD_AGENT_LIST: ScriptedServices._agent_list,
    METHOD_AGENT_WAIT: ScriptedServices._agent_wait,
    METHOD_AGENT_INTERRUPT: ScriptedServices._agent_interrupt,
    METHOD_AGENT_MODELS: ScriptedServices._agent_models,
}
