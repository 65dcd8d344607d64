"""Local wire checks the SDK makes before anything reaches the host (wire.md §6-§8).

Each check raises InvalidParams naming the field and the bound, so a handler that lets it
escape answers -32602 with a useful message.
"""

from __future__ import annotations

import json
import re

from . import _limits as L
from ._errors import InvalidParams
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, TypeGuard

# Patterns as source text, matched with re.fullmatch (re caches the compiled pattern): none
# is needed before an extension's first call, and compiling them at import cost about 0.5 M
# instructions each of every start (bench/analysis/sdk-bounds.md).
SHA256_HEX = r"[0-9a-f]{64}"
SECRET_NAME = r"[A-Za-z_][A-Za-z0-9_.-]{0,63}"
NAME48 = r"[a-z0-9_-]{1,48}"
ID64 = r"[A-Za-z0-9_.:-]{1,64}"
STATES = frozenset(
    [
        "empty", "loading", "pending", "active", "running", "succeeded", "failed",
        "cancelled", "degraded", "stopped", "unavailable",
    ]
)
AGENT_TOOLS = frozenset({"read", "search", "edit", "write", "bash"})
MAX_SAFE_INT = 2**53 - 1


def encoded_size(value: Any) -> int:
    """Bytes of the compact JSON encoding (what the wire carries)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def is_tool_name(name: str) -> bool:
    """``[a-zA-Z_][a-zA-Z0-9_-]{0,63}`` (schema ToolName), checked without a regex: every
    registration checks one, and compiling the pattern was a fifth of a one-tool start's
    registration."""
    return (0 < len(name) <= 64 and name.isascii()
            and (name[0].isalpha() or name[0] == "_")
            and name.replace("_", "a").replace("-", "a").isalnum())


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(value: Any, path: str, low: int = 0, high: int = MAX_SAFE_INT) -> int:
    if not is_int(value):
        raise InvalidParams(f"must be an integer, got {type(value).__name__}", path)
    if not low <= value <= high:
        raise InvalidParams(f"{value} is outside {low}..{high}", path)
    return int(value)


def require_str(value: Any, path: str, *, max_bytes: int | None = None,
                non_blank: bool = False) -> str:
    if not isinstance(value, str):
        raise InvalidParams(f"must be a string, got {type(value).__name__}", path)
    if non_blank and not value.strip():
        raise InvalidParams("must not be empty or whitespace", path)
    if max_bytes is not None and utf8_len(value) > max_bytes:
        raise InvalidParams(f"is {utf8_len(value)} bytes, over the {max_bytes}-byte limit", path)
    text: str = value
    return text


def check_secret_name(value: Any) -> str:
    name = require_str(value, "name")
    if len(name.encode("ascii", "replace")) > L.SECRET_NAME_MAX_BYTES or not (
        name.isascii() and re.fullmatch(SECRET_NAME, name)
    ):
        raise InvalidParams(
            f"secret name {name!r} must be 1..64 ASCII bytes: a letter or underscore, then "
            "letters, digits, underscore, hyphen or dot",
            "name",
        )
    return name


def check_relative_path(path: Any) -> str:
    """A scratch-relative path: never absolute, never climbing out with '..'."""
    require_str(path, "path", non_blank=True)
    if path.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", path):
        raise InvalidParams(f"path {path!r} is absolute; pass a path relative to the scratch dir",
                            "path")
    parts = re.split(r"[/\\]", path)
    if ".." in parts:
        raise InvalidParams(f"path {path!r} climbs out of the scratch dir with '..'", "path")
    if "\x00" in path:
        raise InvalidParams("path contains a NUL byte", "path")
    relative: str = path
    return relative


def check_label(value: Any, path: str, max_chars: int) -> None:
    require_str(value, path)
    if len(value) > max_chars:
        raise InvalidParams(f"is {len(value)} characters, over the {max_chars} limit", path)


def _check_state(value: Any, path: str) -> None:
    if value not in STATES:
        raise InvalidParams(f"state {value!r} is not one of {sorted(STATES)}", path)


def _check_id(value: Any, path: str) -> None:
    if not isinstance(value, str) or not re.fullmatch(ID64, value):
        raise InvalidParams(f"id {value!r} must match [A-Za-z0-9_.:-]{{1,64}}", path)


def check_snapshot(snapshot: Any, commands: frozenset[str]) -> int:
    """Check a presentation snapshot's local bounds; return its encoded size."""
    if not isinstance(snapshot, dict):
        raise InvalidParams("snapshot must be an object", "snapshot")
    require_int(snapshot.get("revision"), "snapshot.revision")
    status = snapshot.get("status")
    if status is not None:
        if not isinstance(status, dict):
            raise InvalidParams("must be an object", "snapshot.status")
        _check_state(status.get("state"), "snapshot.status.state")
        check_label(status.get("label"), "snapshot.status.label", 128)
    activities = snapshot.get("activities", [])
    if not isinstance(activities, list):
        raise InvalidParams("must be an array", "snapshot.activities")
    if len(activities) > L.PRESENTATION_MAX_ACTIVITIES:
        raise InvalidParams(
            f"{len(activities)} activities exceed the limit of {L.PRESENTATION_MAX_ACTIVITIES}",
            "snapshot.activities",
        )
    for i, act in enumerate(activities):
        where = f"snapshot.activities[{i}]"
        if not isinstance(act, dict):
            raise InvalidParams("must be an object", where)
        _check_id(act.get("id"), where + ".id")
        check_label(act.get("label"), where + ".label", 128)
        _check_state(act.get("state"), where + ".state")
    collection = snapshot.get("collection")
    if collection is not None:
        _check_collection(collection)
    actions = snapshot.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidParams("must be an array", "snapshot.actions")
    if len(actions) > L.PRESENTATION_MAX_ACTIONS:
        raise InvalidParams(
            f"{len(actions)} actions exceed the limit of {L.PRESENTATION_MAX_ACTIONS}",
            "snapshot.actions",
        )
    for i, action in enumerate(actions):
        where = f"snapshot.actions[{i}]"
        if not isinstance(action, dict):
            raise InvalidParams("must be an object", where)
        _check_id(action.get("id"), where + ".id")
        if action.get("command") not in commands:
            raise InvalidParams(
                f"command {action.get('command')!r} is not declared in the manifest",
                where + ".command",
            )
    size = encoded_size(snapshot)
    if size > L.PRESENTATION_MAX_BYTES:
        raise InvalidParams(
            f"snapshot is {size} bytes, over the {L.PRESENTATION_MAX_BYTES}-byte limit",
            "snapshot",
        )
    return size


def _check_collection(collection: Any) -> None:
    if not isinstance(collection, dict):
        raise InvalidParams("must be an object", "snapshot.collection")
    nodes = collection.get("nodes", [])
    if not isinstance(nodes, list):
        raise InvalidParams("must be an array", "snapshot.collection.nodes")
    if len(nodes) > L.PRESENTATION_MAX_NODES:
        raise InvalidParams(
            f"{len(nodes)} nodes exceed the limit of {L.PRESENTATION_MAX_NODES}",
            "snapshot.collection.nodes",
        )
    parents: dict[str, str | None] = {}
    for i, node in enumerate(nodes):
        where = f"snapshot.collection.nodes[{i}]"
        if not isinstance(node, dict):
            raise InvalidParams("must be an object", where)
        _check_id(node.get("id"), where + ".id")
        check_label(node.get("label"), where + ".label", 128)
        parents[node["id"]] = node.get("parent")
    for node_id in parents:
        depth, seen, cur = 1, {node_id}, parents[node_id]
        while cur is not None and cur in parents:
            depth += 1
            if cur in seen or depth > L.PRESENTATION_MAX_DEPTH:
                raise InvalidParams(
                    f"node {node_id!r} is deeper than {L.PRESENTATION_MAX_DEPTH} levels "
                    "or in a cycle",
                    "snapshot.collection.nodes",
                )
            seen.add(cur)
            cur = parents[cur]
    detail = collection.get("detail")
    if isinstance(detail, dict) and isinstance(detail.get("text"), str):
        require_str(detail["text"], "snapshot.collection.detail.text",
                    max_bytes=L.PRESENTATION_MAX_DETAIL_BYTES)


_OWNER_FIELDS = frozenset({"session_id", "extension_instance_id", "process_generation"})


def check_resource_owner(owner: Any, path: str = "resource_owner") -> None:
    """A host-derived owner triple (wire.md §4); hand-written because it is on every call."""
    if type(owner) is not dict or owner.keys() != _OWNER_FIELDS:
        raise InvalidParams("must be {session_id, extension_instance_id, process_generation}",
                            path)
    for key in ("session_id", "extension_instance_id"):
        value = owner[key]
        if type(value) is not str or not 0 < len(value.encode()) <= 256:
            raise InvalidParams("must be a string of 1..256 UTF-8 bytes", f"{path}.{key}")
    require_int(owner["process_generation"], f"{path}.process_generation")
