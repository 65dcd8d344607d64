"""Cancellation tokens and the ambient per-request state handlers read."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ._errors import Cancelled, UnavailableError

Id = int | str


class CancellationToken:
    """Thread-safe, idempotent, one-way cancellation flag for one request."""

    __slots__ = ("_callbacks", "_event", "_lock")

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def is_cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until cancelled or ``timeout`` seconds pass; True when cancelled."""
        return self._event.wait(timeout)

    def sleep(self, seconds: float) -> None:
        """Sleep interruptibly; raises Cancelled as soon as the request is cancelled."""
        if self._event.wait(seconds):
            raise Cancelled()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` once on cancellation (now, if already cancelled).

        Returns a function that removes the callback again.
        """
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)

                def remove() -> None:
                    with self._lock:
                        if callback in self._callbacks:
                            self._callbacks.remove(callback)

                return remove
        callback()
        return lambda: None


@dataclass(eq=False)
class Call:
    """One host request being served: the ambient state of its handler."""

    id: Id
    method: str
    params: dict[str, Any]
    token: CancellationToken = field(default_factory=CancellationToken)
    sequence: int = 0
    done: bool = False
    started: bool = False
    resource_owner: Any = None


current_call: ContextVar[Call | None] = ContextVar("octet_current_call", default=None)


def current_cancellation() -> CancellationToken:
    """The cancellation token of the request the calling handler serves."""
    call = current_call.get()
    if call is None:
        raise UnavailableError("current_cancellation() needs an active handler")
    return call.token
