"""Builders for typed tool results and hook result fields (plain JSON-ready dicts)."""

from __future__ import annotations

from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

IMAGE_MIME_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
AUDIO_MIME_TYPES = frozenset({"audio/wav", "audio/mpeg", "audio/ogg", "audio/flac"})


def text_content(text: str) -> dict[str, Any]:
    """A text content part."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return {"type": "text", "text": text}


def _media(kind: str, artifact_id: str, mime_type: str, allowed: frozenset[str]) -> dict[str, Any]:
    if not isinstance(artifact_id, str) or not artifact_id:
        raise ValueError(f"{kind} artifact_id must be a non-empty str from publish_artifact")
    if mime_type not in allowed:
        raise ValueError(f"{kind} mime_type {mime_type!r} is not one of {sorted(allowed)}")
    return {"type": kind, "artifact_id": artifact_id, "mime_type": mime_type}


def image_content(artifact_id: str, mime_type: str, *, alt: str | None = None) -> dict[str, Any]:
    """An image part referring to a published artifact."""
    part = _media("image", artifact_id, mime_type, IMAGE_MIME_TYPES)
    if alt is not None:
        part["alt"] = alt
    return part


def audio_content(
    artifact_id: str, mime_type: str, *, transcript: str | None = None
) -> dict[str, Any]:
    """An audio part referring to a published artifact."""
    part = _media("audio", artifact_id, mime_type, AUDIO_MIME_TYPES)
    if transcript is not None:
        part["transcript"] = transcript
    return part


def tool_result(
    *content: dict[str, Any] | str,
    is_error: bool = False,
    structured_content: dict[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A complete API 0.2/0.4 tool result; bare strings become text parts."""
    parts = [text_content(c) if isinstance(c, str) else c for c in content]
    result: dict[str, Any] = {"content": parts}
    if is_error:
        result["is_error"] = True
    if structured_content is not None:
        result["structured_content"] = structured_content
    if metadata is not None:
        result["metadata"] = metadata
    return result


def persistence_metadata(value: dict[str, Any], public: bool = False) -> dict[str, Any]:
    """The ``persistence_metadata`` field of a before_persistence hook result."""
    if not isinstance(value, dict):
        raise TypeError(f"persistence metadata must be a dict, got {type(value).__name__}")
    return {"persistence_metadata": {"value": value, "public": bool(public)}}


def post_mutation_rescan(resource_ids: Iterable[str]) -> dict[str, Any]:
    """The ``post_mutation_rescan`` field of a post_mutation hook result."""
    ids = list(resource_ids)
    for rid in ids:
        if not isinstance(rid, str):
            raise TypeError(f"resource ids must be str, got {type(rid).__name__}")
    return {"post_mutation_rescan": {"resource_ids": ids}}
