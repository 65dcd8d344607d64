"""Child model sessions (agent_sessions): spawn, steer, follow up, list, wait, interrupt."""

from __future__ import annotations

import re

from . import _limits as L
from ._base import Base, ParentId
from ._checks import AGENT_TOOLS, NAME48, SHA256_HEX, require_int, require_str
from ._errors import InvalidParams
from ._generated.dispatch import (
    FEATURE_AGENT_SESSIONS,
    METHOD_AGENT_FOLLOW_UP,
    METHOD_AGENT_INTERRUPT,
    METHOD_AGENT_LIST,
    METHOD_AGENT_MESSAGE,
    METHOD_AGENT_MODELS,
    METHOD_AGENT_SPAWN,
    METHOD_AGENT_WAIT,
)
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


def _message(text: Any) -> str:
    return require_str(text, "message", max_bytes=L.AGENT_MESSAGE_MAX_BYTES, non_blank=True)


def _target(target: Any) -> str:
    return require_str(target, "target", non_blank=True)


class AgentsMixin(Base):
    def _agent_call(self, method: str, params: dict[str, Any], parent_request_id: ParentId,
                    timeout_ms: int = L.REQUEST_TIMEOUT_MS) -> dict[str, Any]:
        what = method.replace("agent/", "agent ") + " request"
        session = self._require(FEATURE_AGENT_SESSIONS, what)
        params = {"parent_request_id": self._parent(session, parent_request_id, what), **params}
        return session.request(method, params, timeout_ms)

    def spawn_agent(
        self, *, task_name: str, message: str, idempotency_key: str, tools: Sequence[str],
        max_depth: int, max_concurrent_children: int, max_turns: int,
        max_tokens: int | None = None, max_cost_microdollars: int, max_output_bytes: int,
        timeout_ms: int, profile: str | None = None, fingerprint: str | None = None,
        model_selection: dict[str, str] | None = None, parent_request_id: ParentId = ...,
    ) -> dict[str, Any]:
        """Start (or idempotently find) a bounded child session; returns its agent record."""
        for field, value in (("task_name", task_name), ("profile", profile)):
            if value is not None and (not isinstance(value, str)
                                      or not re.fullmatch(NAME48, value)):
                raise InvalidParams(f"{value!r} must be 1..48 lowercase letters, digits, "
                                    "underscores or hyphens", field)
        if fingerprint is not None and (not isinstance(fingerprint, str)
                                        or not re.fullmatch(SHA256_HEX, fingerprint)):
            raise InvalidParams("must be a lowercase SHA-256 hex digest", "fingerprint")
        require_str(idempotency_key, "idempotency_key", max_bytes=256, non_blank=True)
        tool_list = list(tools)
        if (not tool_list or len(set(tool_list)) != len(tool_list)
                or not set(tool_list) <= AGENT_TOOLS):
            raise InvalidParams(f"must be a non-empty, duplicate-free subset of "
                                f"{sorted(AGENT_TOOLS)}", "tools")
        if max_tokens is not None:
            require_int(max_tokens, "max_tokens", L.AGENT_MAX_TOKENS_MIN, L.AGENT_MAX_TOKENS_MAX)
        policy = {
            "tools": tool_list,
            "max_depth": require_int(max_depth, "max_depth", 1, L.AGENT_MAX_DEPTH),
            "max_concurrent_children": require_int(max_concurrent_children,
                                                   "max_concurrent_children", 1,
                                                   L.AGENT_MAX_ACTIVE),
            "max_turns": require_int(max_turns, "max_turns", 1),
            "max_tokens": max_tokens,
            "max_cost_microdollars": require_int(max_cost_microdollars,
                                                 "max_cost_microdollars", 0),
            "max_output_bytes": require_int(max_output_bytes, "max_output_bytes", 1),
            "timeout_ms": require_int(timeout_ms, "timeout_ms", 1),
        }
        params: dict[str, Any] = {"task_name": task_name, "message": _message(message),
                                  "idempotency_key": idempotency_key, "policy": policy}
        if profile is not None:
            params["profile"] = profile
        if fingerprint is not None:
            params["fingerprint"] = fingerprint
        if model_selection is not None:
            if not isinstance(model_selection, dict):
                raise InvalidParams("must be an object", "model_selection")
            params["model_selection"] = model_selection
        return self._agent_call(METHOD_AGENT_SPAWN, params, parent_request_id)

    def send_agent_message(self, target: str, message: str, *,
                           parent_request_id: ParentId = ...) -> dict[str, Any]:
        """Steer a running child with an extra message."""
        return self._agent_call(METHOD_AGENT_MESSAGE,
                                {"target": _target(target), "message": _message(message)},
                                parent_request_id)

    def follow_up_agent(self, target: str, message: str, *,
                        parent_request_id: ParentId = ...) -> dict[str, Any]:
        """Resume a settled child with a follow-up message."""
        return self._agent_call(METHOD_AGENT_FOLLOW_UP,
                                {"target": _target(target), "message": _message(message)},
                                parent_request_id)

    def list_agent_models(self, *, query: str | None = None, limit: int = 50,
                          parent_request_id: ParentId = ...) -> dict[str, Any]:
        """Models a child may be spawned with."""
        params: dict[str, Any] = {"limit": require_int(limit, "limit", 1, 200)}
        if query is not None:
            params["query"] = require_str(query, "query")
        return self._agent_call(METHOD_AGENT_MODELS, params, parent_request_id)

    def list_agents(self, *, parent_request_id: ParentId = ...) -> dict[str, Any]:
        """Every child this owner has, with state, usage and output."""
        return self._agent_call(METHOD_AGENT_LIST, {}, parent_request_id)

    def wait_agents(self, *, timeout_ms: int = L.AGENT_WAIT_DEFAULT_MS,
                    parent_request_id: ParentId = ...) -> dict[str, Any]:
        """Wait up to ``timeout_ms`` (1..60000) for children to settle."""
        require_int(timeout_ms, "timeout_ms", L.AGENT_WAIT_MIN_MS, L.AGENT_WAIT_MAX_MS)
        return self._agent_call(METHOD_AGENT_WAIT, {"timeout_ms": timeout_ms},
                                parent_request_id, timeout_ms + L.REQUEST_TIMEOUT_MS)

    def interrupt_agent(self, target: str, *,
                        parent_request_id: ParentId = ...) -> dict[str, Any]:
        """Stop a child."""
        return self._agent_call(METHOD_AGENT_INTERRUPT, {"target": _target(target)},
                                parent_request_id)
