"""Cancellation tokens and the ambient per-request state handlers read."""

from __future__ import annotations

import threading
from contextvars import ContextVar

from ._errors import Cancelled, UnavailableError
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

Id = int | str


# One lock for every token: cancellation is rare and its critical sections are a few
# assignments, so a lock per token (one per request) would cost more than it could save.
_TOKENS_LOCK = threading.Lock()


class CancellationToken:
    """Thread-safe, idempotent, one-way cancellation flag for one request.

    The Event behind wait()/sleep() and the callback list are made on first use: most
    requests are never waited on or cancelled, and a token is created for every request.
    """

    __slots__ = ("_before_wait", "_callbacks", "_cancelled", "_event")

    def __init__(self, before_wait: Callable[[], None] | None = None) -> None:
        # Runs before wait() blocks: the session's worker pool hands queued work to another
        # worker instead of letting it sit behind a handler that is about to wait.
        self._before_wait = before_wait
        self._cancelled = False
        self._event: threading.Event | None = None
        self._callbacks: list[Callable[[], None]] | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def is_cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        with _TOKENS_LOCK:
            if self._cancelled:
                return
            self._cancelled = True
            event = self._event
            callbacks, self._callbacks = self._callbacks, None
        if event is not None:
            event.set()
        for callback in callbacks or ():
            callback()

    def raise_if_cancelled(self) -> None:
        if self._cancelled:
            raise Cancelled()

    def _waitable(self) -> threading.Event:
        with _TOKENS_LOCK:
            if self._event is None:
                self._event = threading.Event()
                if self._cancelled:
                    self._event.set()
            return self._event

    def wait(self, timeout: float | None = None) -> bool:
        """Block until cancelled or ``timeout`` seconds pass; True when cancelled."""
        if self._cancelled:
            return True
        if self._before_wait is not None and timeout != 0:
            self._before_wait()
        return self._waitable().wait(timeout)

    def sleep(self, seconds: float) -> None:
        """Sleep interruptibly; raises Cancelled as soon as the request is cancelled."""
        if self.wait(seconds):
            raise Cancelled()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` once on cancellation (now, if already cancelled).

        Returns a function that removes the callback again.
        """
        with _TOKENS_LOCK:
            if not self._cancelled:
                if self._callbacks is None:
                    self._callbacks = []
                self._callbacks.append(callback)

                def remove() -> None:
                    with _TOKENS_LOCK:
                        if self._callbacks is not None and callback in self._callbacks:
                            self._callbacks.remove(callback)

                return remove
        callback()
        return lambda: None


class Call:
    """One host request being served: the ambient state of its handler."""

    __slots__ = ("done", "id", "method", "params", "resource_owner", "sequence", "started",
                 "token")

    def __init__(self, rid: Id, method: str, params: dict[str, Any],
                 before_wait: Callable[[], None] | None = None) -> None:
        self.id = rid
        self.method = method
        self.params = params
        self.token = CancellationToken(before_wait)
        self.sequence = 0
        self.done = False
        self.started = False
        self.resource_owner: Any = None


current_call: ContextVar[Call | None] = ContextVar("octet_current_call", default=None)


def current_cancellation() -> CancellationToken:
    """The cancellation token of the request the calling handler serves."""
    call = current_call.get()
    if call is None:
        raise UnavailableError("current_cancellation() needs an active handler")
    return call.token
