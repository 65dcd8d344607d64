"""Host services: artifacts, policy, secrets and the live tool catalog."""

from __future__ import annotations

import re

from . import _limits as L
from ._base import Base, ParentId
from ._checks import (
    SHA256_HEX,
    check_relative_path,
    check_secret_name,
    require_int,
    require_str,
)
from ._errors import InvalidParams, ProtocolError, UnavailableError
from ._generated.dispatch import (
    FEATURE_APPROVALS,
    FEATURE_ARTIFACTS,
    FEATURE_DYNAMIC_TOOLS,
    FEATURE_POLICY_INTENTS,
    FEATURE_SECRETS,
    METHOD_ARTIFACT_PUBLISH,
    METHOD_POLICY_EVALUATE,
    METHOD_SECRET_GET,
    METHOD_TOOLS_REGISTER,
    METHOD_TOOLS_REPLACE,
    METHOD_TOOLS_UNREGISTER,
)
from ._registry import ToolSpec, make_tool
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

_DECISIONS = frozenset({"allow", "ask", "deny"})


class ServicesMixin(Base):
    # ---- artifacts -------------------------------------------------------------------------

    def publish_artifact(self, *, mime_type: str, data: bytes | None = None,
                         path: str | None = None, size: int | None = None,
                         sha256: str | None = None, name: str | None = None,
                         parent_request_id: ParentId = ...) -> str:
        """Publish inline bytes or a scratch-relative file; returns the host's artifact id."""
        session = self._require(FEATURE_ARTIFACTS, "publish_artifact()")
        require_str(mime_type, "mime_type", non_blank=True)
        params: dict[str, Any] = {
            "parent_request_id": self._parent(session, parent_request_id, "publish_artifact()"),
            "mime_type": mime_type,
        }
        if name is not None:
            params["name"] = require_str(name, "name")
        if (data is None) == (path is None):
            raise InvalidParams("pass exactly one of data= (inline bytes) or path=")
        if data is not None:
            if not isinstance(data, bytes | bytearray | memoryview):
                raise InvalidParams(f"must be bytes, got {type(data).__name__}", "data")
            raw = bytes(data)
            if len(raw) > L.ARTIFACT_INLINE_MAX_BYTES:
                raise InvalidParams(f"inline artifact is {len(raw)} bytes, over the "
                                    f"{L.ARTIFACT_INLINE_MAX_BYTES}-byte limit; publish by path",
                                    "data")
            if size is not None or sha256 is not None:
                raise InvalidParams("size= and sha256= go with path=, not data=")
            import base64  # only for inline artifacts: ~1 ms of start-up otherwise

            params["data"] = base64.b64encode(raw).decode("ascii")
        else:
            params["path"] = check_relative_path(path)
            params["size"] = require_int(size, "size", 0, L.ARTIFACT_MAX_BYTES)
            if not isinstance(sha256, str) or not re.fullmatch(SHA256_HEX, sha256):
                raise InvalidParams("must be 64 lowercase hexadecimal characters", "sha256")
            params["sha256"] = sha256
        result = session.request(METHOD_ARTIFACT_PUBLISH, params)
        artifact_id: str = result["artifact_id"]
        return artifact_id

    # ---- policy and secrets ----------------------------------------------------------------

    def evaluate_policy(self, intent: dict[str, Any], *, approval_token: str | None = None,
                        parent_request_id: ParentId = ...) -> dict[str, Any]:
        """Ask the host to decide allow/ask/deny for a structured intent."""
        session = self._require(FEATURE_POLICY_INTENTS, "evaluate_policy()")
        if not isinstance(intent, dict):
            raise InvalidParams("must be an object", "intent")
        for key in ("kind", "operation"):
            require_str(intent.get(key), f"intent.{key}", non_blank=True)
        params: dict[str, Any] = {
            "parent_request_id": self._parent(session, parent_request_id, "evaluate_policy()"),
            "intent": intent,
        }
        if approval_token is not None:
            self._require(FEATURE_APPROVALS, "evaluate_policy(approval_token=)")
            if not isinstance(approval_token, str) or not re.fullmatch(SHA256_HEX, approval_token):
                raise InvalidParams("must be 64 lowercase hexadecimal characters",
                                    "approval_token")
            params["approval_token"] = approval_token
        # The schema checked the decision enum and the token's form; that a token comes
        # only with "ask" is a rule across fields it cannot state.
        result = session.request(METHOD_POLICY_EVALUATE, params)
        if "approval_token" in result and result["decision"] != "ask":
            raise ProtocolError("policy/evaluate: an approval_token may only come with 'ask'")
        return result

    def get_secret(self, name: str, *, parent_request_id: ParentId = ...) -> str:
        """Fetch a brokered secret declared in ``[capabilities] secrets``. Keep it short-lived."""
        session, negotiated = self._negotiated("get_secret()")
        self._require(FEATURE_SECRETS, "get_secret()")
        check_secret_name(name)
        capabilities = negotiated.manifest.get("capabilities") or {}
        allowed = capabilities.get("secrets") or [] if isinstance(capabilities, dict) else []
        if name not in allowed:
            raise InvalidParams(f"secret {name!r} is not declared in [capabilities] secrets",
                                "name")
        params = {
            "parent_request_id": self._parent(session, parent_request_id, "get_secret()"),
            "name": name,
        }
        # The schema checked the value's type and byte bound (its message gives only sizes).
        value: str = session.request(METHOD_SECRET_GET, params)["value"]
        return value

    # ---- dynamic tools ---------------------------------------------------------------------

    @property
    def tool_catalog_revision(self) -> int:
        """The last committed catalog revision (0 after initialize)."""
        session = self._session
        if session is None or session.catalogs is None:
            return 0
        return session.catalogs.revision

    def register_tool(self, *, name: str, description: str, handler: Callable[..., Any],
                      parameters: dict[str, Any] | None = None,
                      output_schema: dict[str, Any] | None = None) -> dict[str, Any]:
        """Add or replace one tool; returns ``{"revision", "tools"}`` once the host accepts."""
        return self.register_tools([{
            "name": name, "description": description, "handler": handler,
            "parameters": parameters, "output_schema": output_schema,
        }])

    def register_tools(self, definitions: Iterable[dict[str, Any]]) -> dict[str, Any]:
        """Add or replace several tools in one transactional request."""
        session = self._require(FEATURE_DYNAMIC_TOOLS, "register_tools()")
        specs = self._tool_specs(session, definitions)
        if not specs or len(specs) > L.MAX_TOOLS_PER_REQUEST:
            raise InvalidParams(f"send 1..{L.MAX_TOOLS_PER_REQUEST} tools per request", "tools")
        return self._mutate(session, METHOD_TOOLS_REGISTER,
                            {"tools": [s.definition() for s in specs]},
                            lambda current: {**current, **{s.name: s for s in specs}})

    def replace_tools(self, definitions: Iterable[dict[str, Any]]) -> dict[str, Any]:
        """Make definitions the whole catalog in one tools/replace request: one revision,
        or nothing changes (an empty list empties it)."""
        session = self._require(FEATURE_DYNAMIC_TOOLS, "replace_tools()")
        specs = self._tool_specs(session, definitions)
        if len(specs) > L.MAX_CATALOG_TOOLS:
            raise InvalidParams(f"the catalog would hold {len(specs)} tools, over the "
                                f"{L.MAX_CATALOG_TOOLS} limit", "tools")
        return self._mutate(session, METHOD_TOOLS_REPLACE,
                            {"tools": [s.definition() for s in specs]},
                            lambda current: {s.name: s for s in specs})

    def _tool_specs(self, session: Any, definitions: Iterable[dict[str, Any]]) -> list[ToolSpec]:
        """Check the definitions of one catalog request and make their specs."""
        specs: list[ToolSpec] = []
        for index, definition in enumerate(definitions):
            if not isinstance(definition, dict):
                raise InvalidParams("must be a dict", f"tools[{index}]")
            unknown = set(definition) - {"name", "description", "handler", "parameters",
                                         "output_schema"}
            if unknown:
                raise InvalidParams(f"unknown keys {sorted(unknown)}", f"tools[{index}]")
            try:
                specs.append(make_tool(definition.get("name"),  # type: ignore[arg-type]
                                       definition.get("description", ""),
                                       definition.get("handler"),  # type: ignore[arg-type]
                                       definition.get("parameters"),
                                       definition.get("output_schema")))
            except (TypeError, ValueError) as exc:
                raise InvalidParams(str(exc), f"tools[{index}]") from None
        if session.legacy and any(s.output_schema for s in specs):
            raise InvalidParams("API 0.1 forbids output_schema")
        names = [s.name for s in specs]
        if len(set(names)) != len(names):
            raise InvalidParams("a tool name appears twice in one request", "tools")
        return specs

    def unregister_tool(self, name: str) -> dict[str, Any]:
        """Remove one tool (absent names are harmless)."""
        return self.unregister_tools(name)

    def unregister_tools(self, *names: str) -> dict[str, Any]:
        """Remove several tools in one request."""
        session = self._require(FEATURE_DYNAMIC_TOOLS, "unregister_tools()")
        if not names or len(names) > L.MAX_TOOLS_PER_REQUEST:
            raise InvalidParams(f"name 1..{L.MAX_TOOLS_PER_REQUEST} tools", "names")
        for name in names:
            require_str(name, "names")
        gone = set(names)
        return self._mutate(session, METHOD_TOOLS_UNREGISTER, {"names": list(names)},
                            lambda current: {k: v for k, v in current.items() if k not in gone})

    def _mutate(self, session: Any, method: str, params: dict[str, Any],
                change: Callable[[dict[str, ToolSpec]], dict[str, ToolSpec]]) -> dict[str, Any]:
        catalogs = session.catalogs
        if catalogs is None:
            raise UnavailableError(f"{method} is only available after initialize")
        with catalogs.mutation:
            staged = change(dict(catalogs.current))
            if len(staged) > L.MAX_CATALOG_TOOLS:
                raise InvalidParams(f"the catalog would hold {len(staged)} tools, over the "
                                    f"{L.MAX_CATALOG_TOOLS} limit", "tools")
            expected = catalogs.stage(staged)
            try:
                # Awaited whatever the handler's cancellation: the host may commit the
                # revision, and abandoning the answer would leave this side one behind.
                result: dict[str, Any] = session.request(method, params, cancellable=False)
            except BaseException:
                catalogs.abort()
                raise
            if result["revision"] != expected:
                catalogs.abort()
                raise ProtocolError(f"{method}: host answered revision {result['revision']}, "
                                    f"expected {expected}")
            catalogs.commit(expected, [n for n in result["tools"] if isinstance(n, str)])
        return result
