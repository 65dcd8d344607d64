"""The initialize handshake: manifest checks first, then feature negotiation (wire.md §2, §5)."""

from __future__ import annotations

from . import _limits as L
from ._checks import is_int
from ._errors import InvalidParams, RemoteError
from ._generated._features import (
    DISTINCT_VERSIONS,
    FEATURE_RULES,
    LIFECYCLE_EVENTS,
    MSG_REQUIRED_HANDLER,
    MSG_REQUIRED_MANIFEST,
    MSG_REQUIRED_NEEDS,
    MSG_REQUIRED_UNSUPPORTED,
    MSG_VERSION_DISTINCT,
    MSG_VERSION_MANIFEST,
    MSG_VERSION_UNSUPPORTED,
    SPOKEN_VERSIONS,
)
from ._generated._models import validate_initialize_params, validate_initialize_params01
from ._generated.dispatch import (
    FEATURE_LIFECYCLE_EVENTS,
)
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from ._registry import Declared

SUPPORTED_APIS = SPOKEN_VERSIONS


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


def _fill(template: str, **args: str) -> str:
    for key, value in args.items():
        template = template.replace("{" + key + "}", value)
    return template


def select_version(requested: Any, pinned: str | None, manifest: Any) -> RemoteError | None:
    """Version selection by the schema's negotiation table; None selects ``requested``."""
    req = str(requested)
    supported = [pinned] if pinned else list(SPOKEN_VERSIONS)
    if req in DISTINCT_VERSIONS:
        msg = _fill(MSG_VERSION_DISTINCT, requested=req, reason=DISTINCT_VERSIONS[req])
    elif req not in SPOKEN_VERSIONS or (pinned and req != pinned):
        msg = _fill(MSG_VERSION_UNSUPPORTED, requested=req, supported=", ".join(supported))
    elif isinstance(manifest, str) and manifest and manifest != req:
        msg = _fill(MSG_VERSION_MANIFEST, requested=req, manifest=manifest)
        supported = [manifest]
    else:
        return None
    return RemoteError(L.CODE_UNSUPPORTED_API_VERSION, msg,
                       {"requested": req, "supported": supported})


def manifest_has(manifest: Any, dotted: str) -> bool:
    """Whether the dotted member of the manifest is present and non-empty."""
    value = manifest
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return False
        value = value[part]
    if value is None or value is False:
        return False
    if isinstance(value, (list, dict, str)):
        return len(value) > 0
    return True


def _refuse(template: str, **args: str) -> RemoteError:
    msg = _fill(template, **args)
    return RemoteError(L.CODE_INVALID_PARAMS, msg,
                       {"path": "/protocol/required_features", "reason": msg})


def accept_features(api: str, required: list[str], optional: list[str],
                    handlers: frozenset[str], manifest: Any) -> list[str]:
    """The answered features by the schema's negotiation table: every required one (or a
    -32602 refusal), then each offered optional one this extension can serve, in offer order,
    once each; a feature whose needs were not accepted is dropped (refused when required)."""
    out: list[str] = []
    for feature in required:
        rule = FEATURE_RULES.get(feature)
        if rule is None or not rule["sdk"] or api not in rule["offer"]:
            raise _refuse(MSG_REQUIRED_UNSUPPORTED, feature=feature, api=api)
        handler, member = rule["handler"], rule["manifest"]
        if handler is not None and handler not in handlers:
            raise _refuse(MSG_REQUIRED_HANDLER, feature=feature, handler=handler)
        if member is not None and not manifest_has(manifest, member):
            raise _refuse(MSG_REQUIRED_MANIFEST, feature=feature, manifest=member)
        if feature not in out:
            out.append(feature)
    required_set = set(out)
    for feature in optional:
        rule = FEATURE_RULES.get(feature)
        if (rule is None or not rule["sdk"] or api not in rule["offer"] or feature in out
                or (rule["handler"] is not None and rule["handler"] not in handlers)
                or (rule["manifest"] is not None
                    and not manifest_has(manifest, rule["manifest"]))):
            continue
        out.append(feature)
    changed = True
    while changed:  # a dropped feature may strand another that needs it
        changed = False
        for feature in list(out):
            missing = [n for n in FEATURE_RULES[feature]["needs"] if n not in out]
            if not missing:
                continue
            if feature in required_set:
                raise _refuse(MSG_REQUIRED_NEEDS, feature=feature, needs=missing[0])
            out.remove(feature)
            changed = True
    return out


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
    declared: Declared, api: str, params: dict[str, Any]
) -> tuple[Negotiated, dict[str, Any]]:
    requested = params.get("api_version")
    if not isinstance(requested, str):
        raise InvalidParams("initialize needs a string api_version", "api_version")
    sent = params.get("manifest")
    refusal = select_version(requested, api, sent.get("api_version") if isinstance(sent, dict)
                             else None)
    if refusal is not None:
        raise refusal
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
    _check_same("tools", set(declared.tools), _names(contributes.get("tools"), "tools"))
    _check_same("commands", set(declared.commands), _names(contributes.get("commands"), "commands"))
    _check_subset("hooks", set(declared.hooks), _names(contributes.get("hooks"), "hooks"))
    _check_subset("ui", set(declared.status), _names(contributes.get("ui"), "ui"))
    _check_subset("tool_renderers", set(declared.renderers),
                  _names(contributes.get("tool_renderers"), "tool_renderers"))
    if declared.context is not None and contributes.get("context") is not True:
        raise InvalidParams("a context handler is registered but the manifest does not declare "
                            "context = true", "manifest.contributes.context")

    result: dict[str, Any] = {
        "api_version": api,
        "name": name,
        "version": version,
        "tools": [spec.definition() for spec in declared.tools.values()],
        "commands": [{"name": n, "description": d} for n, (d, _) in declared.commands.items()],
        "hooks": sorted(declared.hooks),
        "ui": sorted(declared.status),
        "context": declared.context is not None,
        "tool_renderers": sorted(declared.renderers),
    }
    protocol = params.get("protocol")
    if api == "0.1":
        if protocol is not None:
            raise InvalidParams("API 0.1 initialize has no protocol block", "protocol")
        with_schema = [s.name for s in declared.tools.values() if s.output_schema is not None]
        if with_schema:
            raise InvalidParams(f"API 0.1 forbids output_schema (tools {with_schema})",
                                "tools")
        return Negotiated(frozenset(), 1, declared.max_pending_requests, L.MAX_MESSAGE_BYTES,
                          manifest, name, version), result

    negotiated, block = _features(declared, api, protocol, manifest)
    result["protocol"] = block
    return Negotiated(negotiated[0], negotiated[1], negotiated[2], negotiated[3], manifest,
                      name, version), result


def _features(declared: Declared, api: str, protocol: Any, manifest: dict[str, Any]
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

    handlers = frozenset({"lifecycle"} if declared.lifecycle else ())
    features = accept_features(api, required, optional, handlers, manifest)

    concurrency = min(declared.max_concurrent_requests, host_concurrency, L.MAX_IN_FLIGHT)
    max_bytes = limits.get("max_message_bytes")
    max_bytes = max_bytes if is_int(max_bytes) and max_bytes > 0 else L.MAX_MESSAGE_BYTES
    pending = limits.get("max_pending_requests")
    max_pending = declared.max_pending_requests
    if is_int(pending) and pending >= 0:
        max_pending = min(max_pending, pending)
    block: dict[str, Any] = {
        "version": api,
        "features": features,
        "limits": {"max_concurrent_requests": concurrency},
    }
    if FEATURE_LIFECYCLE_EVENTS in features:
        block["lifecycle_events"] = [e for e in LIFECYCLE_EVENTS if e in declared.lifecycle]
    return (frozenset(features), concurrency, max_pending, max_bytes), block
