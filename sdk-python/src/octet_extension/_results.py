"""Turn what handlers return into wire results, checking the bounds the SDK owns."""

from __future__ import annotations

from . import _limits as L
from ._checks import encoded_size
from ._content import AUDIO_MIME_TYPES, IMAGE_MIME_TYPES
from ._errors import InvalidParams
from ._faults import output_schema_fault
from ._registry import ToolSpec
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


_RESULT_02_FIELDS = frozenset({"content", "is_error", "structured_content", "metadata"})


class ResultError(Exception):
    """A handler returned something the wire cannot carry (answered -32603)."""


def tool_result_01(value: Any, spec: ToolSpec) -> dict[str, Any]:
    if isinstance(value, str):
        return {"content": value}
    if value is None:
        return {"content": ""}
    if not isinstance(value, dict):
        raise ResultError(f"tool {spec.name!r} returned {type(value).__name__}; "
                          "return a str or {'content': str}")
    content = value.get("content")
    if isinstance(content, list):
        # A 0.2-style result on the frozen wire: keep only its text.
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        value = {**value, "content": content}
        value.pop("structured_content", None)
    if not isinstance(content, str):
        raise ResultError(f"tool {spec.name!r} result content must be a str on API 0.1")
    extra = set(value) - {"content", "is_error", "metadata"}
    if extra:
        raise ResultError(f"tool {spec.name!r} result has unknown fields {sorted(extra)}")
    result: dict[str, Any] = value
    return result


def tool_result_02(value: Any, spec: ToolSpec) -> dict[str, Any]:
    if isinstance(value, str):
        result: dict[str, Any] = {"content": [{"type": "text", "text": value}]}
    elif value is None:
        result = {"content": [{"type": "text", "text": ""}]}
    elif isinstance(value, dict):
        result = value
        content = result.get("content")
        if isinstance(content, str):
            result = {**result, "content": [{"type": "text", "text": content}]}
    else:
        raise ResultError(f"tool {spec.name!r} returned {type(value).__name__}; "
                          "return a str or a tool_result(...)")
    if not _RESULT_02_FIELDS.issuperset(result):
        extra = set(result) - _RESULT_02_FIELDS
        raise ResultError(f"tool {spec.name!r} result has unknown fields {sorted(extra)}")
    parts = result.get("content")
    # The common result, one text part, checked inline; anything else part by part.
    if not (type(parts) is list and len(parts) == 1 and type(part := parts[0]) is dict
            and part.get("type") == "text" and type(part.get("text")) is str):
        _check_parts(parts, spec.name)
    if "is_error" in result and not isinstance(result["is_error"], bool):
        raise ResultError(f"tool {spec.name!r}: is_error must be a bool")
    structured = result.get("structured_content")
    if spec.output_schema is not None:
        if structured is None:
            raise ResultError(f"tool {spec.name!r} declares output_schema but returned no "
                              "structured_content")
        try:
            if spec.check_output is not None:
                spec.check_output(structured, "")
        except InvalidParams as exc:
            pointer = "" if exc.path in (None, "", "/") else str(exc.path)
            keyword: str = getattr(exc, "keyword", None) or ""  # set by the complete validator
            raise output_schema_fault(spec.name, pointer, keyword, exc.reason) from None
    for field in ("structured_content", "metadata"):
        if field in result and not isinstance(result[field], dict):
            raise ResultError(f"tool {spec.name!r}: {field} must be an object")
    return result


def check_result_sizes(result: dict[str, Any]) -> None:
    """Byte bounds of structured_content and metadata.

    Only called when the whole encoded frame exceeds the smaller bound: a smaller frame cannot
    hold an oversized field, so the common case never encodes anything twice.
    """
    for field, limit in (("structured_content", L.RESULT_MAX_STRUCTURED_BYTES),
                         ("metadata", L.RESULT_MAX_METADATA_BYTES)):
        value = result.get(field)
        if value is not None:
            size = encoded_size(value)
            if size > limit:
                raise ResultError(f"{field} is {size} bytes, over the {limit}-byte limit")


def _check_parts(parts: Any, name: str) -> None:
    if not isinstance(parts, list) or not parts:
        raise ResultError(f"tool {name!r}: content must be a non-empty list of parts")
    if len(parts) > L.RESULT_MAX_CONTENT_PARTS:
        raise ResultError(f"tool {name!r}: {len(parts)} content parts exceed the limit of "
                          f"{L.RESULT_MAX_CONTENT_PARTS}")
    has_text = False
    for i, part in enumerate(parts):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text":
            if not isinstance(part.get("text"), str):
                raise ResultError(f"tool {name!r}: content[{i}].text must be a str")
            has_text = True
        elif kind in ("image", "audio"):
            allowed = IMAGE_MIME_TYPES if kind == "image" else AUDIO_MIME_TYPES
            if not isinstance(part.get("artifact_id"), str):
                raise ResultError(f"tool {name!r}: content[{i}] needs an artifact_id")
            if part.get("mime_type") not in allowed:
                raise ResultError(f"tool {name!r}: content[{i}].mime_type "
                                  f"{part.get('mime_type')!r} is not one of {sorted(allowed)}")
        else:
            raise ResultError(f"tool {name!r}: content[{i}] has unknown type {kind!r}")
    if not has_text:
        raise ResultError(f"tool {name!r}: content needs at least one text part")


def command_result(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        return {"text": value}
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return value
    raise ResultError("a command must return a str or {'text': str}")


def hook_result(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    raise ResultError("a hook must return a dict (or None for no effect)")


def context_result(value: Any) -> dict[str, Any]:
    if value is None:
        return {"items": []}
    if isinstance(value, list):
        return {"items": value}
    if isinstance(value, dict) and isinstance(value.get("items"), list):
        return value
    raise ResultError("a context handler must return a list of items or {'items': [...]}")


def status_result(value: Any, surface: str) -> dict[str, Any]:
    if isinstance(value, str):
        return {"surface": surface, "text": value, "priority": 0}
    if isinstance(value, dict):
        return {"surface": surface, "priority": 0, **value}
    raise ResultError("a status handler must return a str or a dict")


def render_result(value: Any) -> dict[str, Any]:
    if isinstance(value, list):
        return {"segments": value}
    if isinstance(value, str):
        return {"segments": [{"text": value, "style_role": None}]}
    if isinstance(value, dict) and isinstance(value.get("segments"), list):
        return value
    raise ResultError("a renderer must return segments, a str or {'segments': [...]}")
