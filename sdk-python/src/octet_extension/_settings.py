"""Declared settings: the ``configure`` exchange (the configure feature).

The host validates the operator's values against the manifest's ``settings`` schema (defaults
applied) and sends them after initialize and on every change, without a restart. The handler
registered with ``@ext.on_configure`` judges them; raising :class:`SettingsRefused` (or any
exception, its message the reason) refuses them and keeps the settings in force. A handler
whose first parameter is annotated with a dataclass or ``TypedDict`` gets that type::

    @dataclass
    class Settings:
        greeting: str
        limit: int

    @ext.on_configure
    def configure(settings: Settings, info: ConfigureInfo) -> None:
        if settings.limit > 5 and not info.dry_run:
            ...
"""

from __future__ import annotations

import threading

from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class SettingsRefused(Exception):
    """Raised by an on_configure handler to refuse the settings, with reasons."""

    def __init__(self, *reasons: str) -> None:
        self.reasons = [str(r) for r in reasons] or ["refused by the extension"]
        super().__init__("; ".join(self.reasons))


class ConfigureInfo:
    """Which configure a handler is judging: ``dry_run`` (judge only) and the ``revision``."""

    __slots__ = ("dry_run", "revision")

    def __init__(self, dry_run: bool, revision: int) -> None:
        self.dry_run = dry_run
        self.revision = revision

    def __repr__(self) -> str:
        return f"ConfigureInfo(dry_run={self.dry_run}, revision={self.revision})"


class SettingsState:
    """The registered handler and the settings in force (last accepted)."""

    __slots__ = ("convert", "handler", "lock", "revision", "value")

    def __init__(self) -> None:
        self.handler: Callable[[Any, ConfigureInfo], Any] | None = None
        self.convert: Callable[[Any], Any] | None = None
        self.lock = threading.Lock()
        self.value: Any = None
        self.revision = 0

    def register(self, func: Callable[..., Any],
                 shape: tuple[list[str], int, bool] | None) -> None:
        """Take ``func``; ``shape`` is its positional parameters (the registry reads them)."""
        if self.handler is not None:
            raise ValueError("on_configure is registered twice")
        takes_info = shape is None or shape[2] or len(shape[0]) >= 2
        self.handler = func if takes_info else (lambda s, _info: func(s))
        first = shape[0][0] if shape and shape[0] else None
        if first is not None and getattr(func, "__annotations__", None):
            from ._typed import derive

            typed = derive("on_configure", func, first)
            self.convert = typed.convert_args

    def configure(self, params: dict[str, Any]) -> dict[str, Any]:
        """Judge (and outside a dry run, apply) params["settings"]; the configure result."""
        raw = params["settings"]
        info = ConfigureInfo(bool(params["dry_run"]), int(params["revision"]))
        try:
            value = self.convert(raw) if self.convert is not None else raw
        except Exception as exc:  # a dataclass that does not model the declared settings
            reason = f"settings do not fit the handler's type: {exc}"
            return {"accepted": False, "reasons": [reason]}
        if self.handler is not None:
            try:
                self.handler(value, info)
            except SettingsRefused as exc:
                return {"accepted": False, "reasons": exc.reasons}
            except Exception as exc:
                return {"accepted": False, "reasons": [str(exc) or type(exc).__name__]}
        if not info.dry_run:
            with self.lock:
                self.value, self.revision = value, info.revision
        return {"accepted": True}

    def current(self) -> tuple[Any, int]:
        with self.lock:
            return self.value, self.revision
