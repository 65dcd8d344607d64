"""Talking to the user and the frontend: notify, confirm, input, progress, presentation."""

from __future__ import annotations

from . import _limits as L
from ._base import Base, ParentId
from ._cancel import current_call
from ._checks import check_label, check_snapshot, require_int, require_str, utf8_len
from ._errors import InvalidParams, ProtocolError, UnavailableError
from ._generated.dispatch import (
    FEATURE_PROGRESS_DECORATION,
    FEATURE_REQUEST_PROGRESS,
    METHOD_CONFIRMATION_REQUEST,
    METHOD_CONTEXT_CONTRIBUTION,
    METHOD_INPUT_REQUEST,
    METHOD_NOTIFICATION,
    METHOD_PRESENTATION_UPDATE,
    METHOD_PROGRESS,
    METHOD_STATUS_CONTRIBUTION,
)
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from ._generated.extension_methods import InputOption

_LEVELS = frozenset({"info", "success", "warning", "error"})
_PLACEMENTS = frozenset({"system_prefix", "system_suffix", "prompt_prefix", "prompt_suffix"})


class InteractMixin(Base):
    def notify(self, message: str, level: str = "info", *, title: str | None = None) -> None:
        """Show a notification (manifest ``notifications = true``)."""
        session, negotiated = self._negotiated("notify()")
        self._manifest_flag(negotiated, "notifications", "notify()")
        require_str(message, "message")
        if len(message) > 4096:
            raise InvalidParams(f"is {len(message)} characters, over the 4096 limit", "message")
        if level not in _LEVELS:
            raise InvalidParams(f"level {level!r} is not one of {sorted(_LEVELS)}", "level")
        params: dict[str, Any] = {"message": message, "level": level}
        if title is not None:
            params["title"] = require_str(title, "title")
        session.send(METHOD_NOTIFICATION, params)

    def contribute_context(self, items: list[dict[str, Any]]) -> None:
        """Push context items unprompted (``context/contribution``; manifest ``context``)."""
        session, negotiated = self._negotiated("contribute_context()")
        self._manifest_flag(negotiated, "context", "contribute_context()")
        if not isinstance(items, list):
            raise InvalidParams("must be a list of context items", "items")
        for index, item in enumerate(items):
            if not isinstance(item, dict) or item.get("placement") not in _PLACEMENTS:
                raise InvalidParams(f"needs label, content and a placement in "
                                    f"{sorted(_PLACEMENTS)}", f"items[{index}]")
            require_str(item.get("label"), f"items[{index}].label")
            require_str(item.get("content"), f"items[{index}].content")
        session.send(METHOD_CONTEXT_CONTRIBUTION, {"items": items})

    def contribute_status(self, surface: str, text: str, *, priority: int = 0,
                          style_role: str | None = None) -> None:
        """Push a status/header/footer line unprompted (``status/contribution``)."""
        session, negotiated = self._negotiated("contribute_status()")
        if surface not in (negotiated.contributes.get("ui") or ()):
            raise UnavailableError(f"contribute_status(): surface {surface!r} is not in the "
                                   "manifest's [contributes] ui")
        check_label(text, "text", 1024)
        require_int(priority, "priority", -(2**53 - 1))
        params: dict[str, Any] = {"surface": surface, "text": text, "priority": priority}
        if style_role is not None:
            params["style_role"] = require_str(style_role, "style_role")
        session.send(METHOD_STATUS_CONTRIBUTION, params)

    def confirm(self, message: str, *, title: str | None = None, destructive: bool = False,
                parent_request_id: ParentId = ...) -> bool:
        """Ask the user yes/no; False when denied, dropped or non-interactive."""
        session, negotiated = self._negotiated("confirm()")
        self._manifest_flag(negotiated, "confirmations", "confirm()")
        require_str(message, "message")
        params: dict[str, Any] = {"message": message}
        if title is not None:
            params["title"] = require_str(title, "title")
        if destructive:
            params["destructive"] = True
        if not session.legacy:
            params["parent_request_id"] = self._parent(session, parent_request_id, "confirm()")
        # A person answers: no SDK timeout (cancellation and transport loss still end it).
        result = session.request(METHOD_CONFIRMATION_REQUEST, params, None)
        return bool(result["confirmed"])

    def request_input(self, prompt: str, secret: bool = False, *,
                      options: Sequence[InputOption] | None = None,
                      allow_free_text: bool = False,
                      parent_request_id: ParentId = ...) -> str | None:
        """Ask the user for text; None means cancelled or no interactive input.

        ``options`` offers choices, in order (``{"value", "label", "description"?}``, at most
        64, unique values, not with ``secret``): the answer is one option's value, or any
        text when ``allow_free_text``; the host refuses anything else (None).
        """
        session, _ = self._negotiated("request_input()")
        if session.legacy:
            raise UnavailableError("request_input() needs API 0.2 or later")
        require_str(prompt, "prompt", max_bytes=L.INPUT_PROMPT_MAX_BYTES, non_blank=True)
        params: dict[str, Any] = {
            "parent_request_id": self._parent(session, parent_request_id, "request_input()"),
            "prompt": prompt,
            "secret": bool(secret),
        }
        if options is not None:
            params["options"] = [dict(o) for o in options]
        if allow_free_text:
            params["allow_free_text"] = True
        result = session.request(METHOD_INPUT_REQUEST, params, None)
        value = result.get("value")
        if value is None:
            return None
        if not isinstance(value, str):
            raise ProtocolError("input/request: value must be a string or null")
        if utf8_len(value) > L.INPUT_VALUE_MAX_BYTES:
            raise ProtocolError(f"input/request: value is over the {L.INPUT_VALUE_MAX_BYTES}-byte "
                                "limit")
        return value

    def progress(self, event: dict[str, Any] | None = None, /, *, message: str | None = None,
                 current: float | None = None, total: float | None = None,
                 unit: str | None = None, parent_request_id: ParentId = ...) -> None:
        """Emit ``$/progress``: status keywords, or one complete event dict."""
        session = self._require(FEATURE_REQUEST_PROGRESS, "progress()")
        if event is None:
            event = {"type": "status"}
            for key, value in (("message", message), ("current", current), ("total", total),
                               ("unit", unit)):
                if value is not None:
                    event[key] = value
        elif not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise InvalidParams("a progress event must be a dict with a 'type'", "event")
        for key in ("current", "total"):
            value = event.get(key)
            if value is not None and (isinstance(value, bool) or
                                      not isinstance(value, int | float) or value < 0):
                raise InvalidParams("must be a number >= 0", f"event.{key}")
        self._emit_progress(session, parent_request_id, event, "progress()")

    def progress_decoration(self, label: str, detail: str | None = None, *,
                            parent_request_id: ParentId = ...) -> None:
        """Decorate the running call's progress row (needs ``progress_decoration``)."""
        session = self._require(FEATURE_PROGRESS_DECORATION, "progress_decoration()")
        self._require(FEATURE_REQUEST_PROGRESS, "progress_decoration()")
        check_label(label, "label", 64)
        event: dict[str, Any] = {"type": "decoration", "label": label}
        if detail is not None:
            check_label(detail, "detail", 256)
            event["detail"] = detail
        self._emit_progress(session, parent_request_id, event, "progress_decoration()")

    def _emit_progress(self, session: Any, parent_request_id: ParentId,
                       event: dict[str, Any], what: str) -> None:
        parent = self._parent(session, parent_request_id, what)
        call = session.inflight.get(parent)
        if call is None:
            raise UnavailableError(f"{what}: parent request {parent!r} already finished")
        with session._lock:
            call.sequence += 1
            sequence = call.sequence
        session.send(METHOD_PROGRESS,
                     {"parent_request_id": parent, "sequence": sequence, "event": event})

    def update_presentation(self, snapshot: dict[str, Any], *,
                            parent_request_id: ParentId = ...,
                            resource_owner: dict[str, Any] | None = None) -> None:
        """Replace this extension's presentation snapshot (``presentation/update``; manifest
        ``presentation = true``)."""
        session, negotiated = self._negotiated("update_presentation()")
        if session.legacy:
            raise UnavailableError("update_presentation() needs API 0.2 or later")
        self._manifest_flag(negotiated, "presentation", "update_presentation()")
        commands = frozenset(negotiated.contributes.get("commands") or ())
        check_snapshot(snapshot, commands)
        revision = snapshot["revision"]
        params: dict[str, Any] = {"snapshot": snapshot}
        if resource_owner is not None:
            if parent_request_id is not ...:
                raise InvalidParams("parent_request_id and resource_owner are mutually exclusive")
            if not isinstance(resource_owner, dict):
                raise InvalidParams("must be the host-issued owner object", "resource_owner")
            params["resource_owner"] = resource_owner
        elif parent_request_id is not ...:
            params["parent_request_id"] = self._parent(session, parent_request_id,
                                                       "update_presentation()")
        else:
            call = current_call.get()
            if call is not None:
                params["parent_request_id"] = call.id
        # Its own lock: revision check and send are one step, and a send may wait for the
        # writer's bound, which must never hold up the session's lock (the reader needs it).
        with session.presentation_lock:
            if revision <= session.presentation_revision:
                raise InvalidParams(
                    f"revision {revision} does not increase on {session.presentation_revision}",
                    "snapshot.revision",
                )
            session.send(METHOD_PRESENTATION_UPDATE, params)
            session.presentation_revision = revision

    presentation = update_presentation

    def publish_presentation(self, snapshot: dict[str, Any], *,
                             parent_request_id: ParentId = ...,
                             resource_owner: dict[str, Any] | None = None) -> None:
        """Deprecated: ``update_presentation()``, named for the wire's ``presentation/update``
        (docs/glossary.md); this name goes in the release after next."""
        import warnings  # here: only this deprecated name needs it, not every start

        warnings.warn("publish_presentation() is deprecated; use update_presentation()",
                      DeprecationWarning, stacklevel=2)
        self.update_presentation(snapshot, parent_request_id=parent_request_id,
                                 resource_owner=resource_owner)
