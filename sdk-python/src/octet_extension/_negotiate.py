"""The initialize handshake: manifest checks first, then feature negotiation (wire.md §2, §5)."""

from __future__ import annotations

from . import _limits as L
from ._checks import is_int
from ._errors import InvalidParams, RemoteError
from ._models import validate_initialize_params, validate_initialize_params01
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from ._extension import Extension

SUPPORTED_APIS = ("0.1", "0.2", "0.4")
SUPPORTED_FEATURES = frozenset({
    "request_cancellation", "content_parts", "request_progress", "artifacts",
    "lifecycle_events", "policy_intents", "dynamic_tools", "agent_sessions",
    "delegation_telemetry_v1", "approvals", "secrets", "progress_decoration", "kv",
})


class Negotiated:
    """The outcome of the handshake (read-only by convention). A plain slotted class, not a
    dataclass: ``dataclasses`` imports ``inspect`` and costs several ms of every start."""

    __slots__ = ("concurrency", "features", "manifest", "max_message_bytes", "max_pending",
                 "name", "version")

    def __init__(self, features: frozenset[str], concurrency: int, max_pending: int,
                 max_message_bytes: int, manifest: dict[str, Any], name: str,
                 version: str) -> None:
        self.features = features
        self.concurrency = concurrency
        self.max_pending = max_pending
        self.max_message_bytes = max_message_bytes
        self.manifest = manifest
        self.name = name
        self.version = version

    @property
    def contributes(self) -> dict[str, Any]:
        value = self.manifest.get("contributes")
        return value if isinstance(value, dict) else {}


def unsupported_version(requested: Any) -> RemoteError:
    why = ("API 0.3 is a distinct wire this SDK does not speak" if requested == "0.3"
           else f"API version {requested!r} is not supported")
    return RemoteError(L.CODE_UNSUPPORTED_API_VERSION, why,
                       {"requested": str(requested), "supported": list(SUPPORTED_APIS)})


def _names(value: Any, path: str) -> set[str]:
    if value is None:
        return set()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidParams("must be an array of strings", path)
    return set(value)


def _check_same(kind: str, implemented: set[str], declared: set[str]) -> None:
    if implemented == declared:
        return
    parts = []
    if implemented - declared:
        parts.append(f"implemented but not in the manifest: {sorted(implemented - declared)}")
    if declared - implemented:
        missing = sorted(declared - implemented)
        parts.append(f"declared in the manifest but not implemented: {missing}")
    raise InvalidParams(f"bootstrap {kind} do not match the manifest; " + "; ".join(parts),
                        f"manifest.contributes.{kind}")


def _check_subset(kind: str, implemented: set[str], declared: set[str]) -> None:
    extra = implemented - declared
    if extra:
        raise InvalidParams(f"{kind} {sorted(extra)} are implemented but not declared in the "
                            "manifest", f"manifest.contributes.{kind}")


def negotiate(
    ext: Extension, api: str, params: dict[str, Any]
) -> tuple[Negotiated, dict[str, Any]]:
    requested = params.get("api_version")
    if requested not in SUPPORTED_APIS:
        raise unsupported_version(requested)
    if requested != api:
        raise RemoteError(
            L.CODE_UNSUPPORTED_API_VERSION,
            f"host requested API {requested} but this extension runs API {api}",
            {"requested": str(requested), "supported": [api]},
        )
    # The whole params object against the generated schema (once per session, so the
    # complete validator is affordable here); the checks below then rely on its shape.
    problems = (validate_initialize_params01 if api == "0.1" else validate_initialize_params)(
        params)
    if problems:
        path, _, reason = problems[0].partition(": ")
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InvalidParams(reason + more, path.replace("$", "", 1).lstrip(".") or "params")
    manifest = params.get("manifest")
    if not isinstance(manifest, dict):
        raise InvalidParams("must be an object", "manifest")
    name, version = manifest.get("name"), manifest.get("version")
    if not isinstance(name, str) or not isinstance(version, str):
        raise InvalidParams("manifest needs string name and version", "manifest")
    contributes = manifest.get("contributes") or {}
    if not isinstance(contributes, dict):
        raise InvalidParams("must be an object", "manifest.contributes")

    # Bootstrap contributions are checked before negotiation (seed 002, live tool catalogs).
    _check_same("tools", set(ext._tools), _names(contributes.get("tools"), "tools"))
    _check_same("commands", set(ext._commands), _names(contributes.get("commands"), "commands"))
    _check_subset("hooks", set(ext._hooks), _names(contributes.get("hooks"), "hooks"))
    _check_subset("ui", set(ext._status), _names(contributes.get("ui"), "ui"))
    _check_subset("tool_renderers", set(ext._renderers),
                  _names(contributes.get("tool_renderers"), "tool_renderers"))
    if ext._context is not None and contributes.get("context") is not True:
        raise InvalidParams("a context handler is registered but the manifest does not declare "
                            "context = true", "manifest.contributes.context")

    result: dict[str, Any] = {
        "api_version": api,
        "name": name,
        "version": version,
        "tools": [spec.definition() for spec in ext._tools.values()],
        "commands": [{"name": n, "description": d} for n, (d, _) in ext._commands.items()],
        "hooks": sorted(ext._hooks),
        "ui": sorted(ext._status),
        "context": ext._context is not None,
        "tool_renderers": sorted(ext._renderers),
    }
    protocol = params.get("protocol")
    if api == "0.1":
        if protocol is not None:
            raise InvalidParams("API 0.1 initialize has no protocol block", "protocol")
        with_schema = [s.name for s in ext._tools.values() if s.output_schema is not None]
        if with_schema:
            raise InvalidParams(f"API 0.1 forbids output_schema (tools {with_schema})",
                                "tools")
        return Negotiated(frozenset(), 1, ext.max_pending_requests, L.MAX_MESSAGE_BYTES,
                          manifest, name, version), result

    negotiated, block = _features(ext, api, protocol)
    result["protocol"] = block
    return Negotiated(negotiated[0], negotiated[1], negotiated[2], negotiated[3], manifest,
                      name, version), result


def _features(ext: Extension, api: str, protocol: Any
              ) -> tuple[tuple[frozenset[str], int, int, int], dict[str, Any]]:
    if not isinstance(protocol, dict):
        raise InvalidParams(f"API {api} initialize needs a protocol object", "protocol")
    if protocol.get("version") != api:
        raise InvalidParams(f"protocol.version {protocol.get('version')!r} must equal {api}",
                            "protocol.version")
    required = protocol.get("required_features", [])
    optional = protocol.get("optional_features", [])
    for path, value in (("protocol.required_features", required),
                        ("protocol.optional_features", optional)):
        if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
            raise InvalidParams("must be an array of strings", path)
    limits = protocol.get("limits")
    if not isinstance(limits, dict):
        raise InvalidParams("must be an object", "protocol.limits")
    host_concurrency = limits.get("max_concurrent_requests")
    if not is_int(host_concurrency) or host_concurrency < 1:
        raise InvalidParams("must be an integer >= 1", "protocol.limits.max_concurrent_requests")

    available = set(SUPPORTED_FEATURES)
    if api != "0.4":
        available.discard("kv")
    if not ext._lifecycle:
        available.discard("lifecycle_events")
    features: list[str] = []
    for feature in required:
        if feature not in SUPPORTED_FEATURES or (feature == "kv" and api != "0.4"):
            raise InvalidParams(f"required feature {feature!r} is not supported by this SDK",
                                "protocol.required_features")
        if feature not in features:
            features.append(feature)
    for feature in optional:
        if feature in available and feature not in features:
            features.append(feature)

    concurrency = min(ext.max_concurrent_requests, host_concurrency)
    max_bytes = limits.get("max_message_bytes")
    max_bytes = max_bytes if is_int(max_bytes) and max_bytes > 0 else L.MAX_MESSAGE_BYTES
    pending = limits.get("max_pending_requests")
    max_pending = ext.max_pending_requests
    if is_int(pending) and pending >= 0:
        max_pending = min(max_pending, pending)
    block: dict[str, Any] = {
        "version": api,
        "features": features,
        "limits": {"max_concurrent_requests": concurrency},
    }
    if "lifecycle_events" in features:
        block["lifecycle_events"] = sorted(ext._lifecycle)
    return (frozenset(features), concurrency, max_pending, max_bytes), block
