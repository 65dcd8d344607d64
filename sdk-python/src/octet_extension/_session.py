"""One session with a host: what its requests mean, in the order the host may send them.

initialize (negotiation), the host methods (through the dispatcher, _dispatch.py), the
lifecycle observations, and shutdown, EOF and protocol failure, each bounded by a deadline.
The transport underneath is the connection (_connection.py); what the author declared comes
in as a ``Declared`` (_registry.py), never as the Extension. A session is created per
``serve()``, so an Extension can be served again (tests do this).
"""

from __future__ import annotations

import threading
import time
from collections import deque

from . import _limits as L
from ._cancel import Call, Id
from ._catalog import CatalogHistory
from ._checks import is_int
from ._connection import Connection, error_frame
from ._dispatch import Dispatcher
from ._errors import InvalidParams, RemoteError
from ._generated.dispatch import (
    DISPATCH_HANDSHAKE,
    DISPATCH_SHUTDOWN,
    HOST_ROUTES,
    METHOD_TOOL_CALL,
    WORK_METHODS,
    HostHandler,
    dispatch,
)
from ._log import log
from ._negotiate import negotiate
from ._registry import Declared
from ._typecheck import TYPE_CHECKING
from ._workers import WorkerPool

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_OBSERVE = "observe"  # work item: drain the queued lifecycle observations, in order


class Session(Connection, HostHandler):
    """Routes every method the host sends through the generated table (HOST_ROUTES): the
    handshake, shutdown, cancellation and lifecycle events here, the work methods to the
    dispatcher. The generated completeness test fails when an on_* handler is missing."""

    def __init__(self, declared: Declared, in_fd: int, out_fd: int, api_version: str) -> None:
        super().__init__(in_fd, out_fd, api_version)
        self.declared = declared
        self.catalogs: CatalogHistory | None = None
        self._dispatcher: Dispatcher | None = None
        self._shutdown_started = False
        self.presentation_revision = -1
        self.presentation_lock = threading.Lock()
        self._observing = 0
        # Lifecycle observations run one at a time in arrival order (as in the Go and
        # TypeScript SDKs): queued here, drained by one worker at a time.
        self._observations: deque[
            tuple[str, dict[str, Any], list[Callable[[Any, Any], Any]]]] = deque()
        self._observer_queued = False

    # ---- requests and notifications ------------------------------------------------------

    def _request(self, rid: Id, method: str, params: dict[str, Any]) -> None:
        route = HOST_ROUTES.get(method)
        # initialize, and shutdown also before initialize: a host may give up on a handshake
        if route is not None and route.dispatch in (DISPATCH_HANDSHAKE, DISPATCH_SHUTDOWN):
            dispatch(self, method, rid, params)
            return
        if self.negotiated is None:
            self._answer_error(rid, L.CODE_INVALID_REQUEST, "initialize has not completed")
            return
        if method not in WORK_METHODS:
            self._answer_error(rid, L.CODE_METHOD_NOT_FOUND, f"method {method!r} is not served",
                               {"method": method})
            return
        self._admit(rid, method, params)

    def _notification(self, method: Any, params: Any) -> None:
        route = HOST_ROUTES.get(method) if isinstance(method, str) else None
        if route is not None and route.notification:
            dispatch(self, method, method, params)

    def on_initialize(self, call: Any, params: dict[str, Any]) -> None:
        self._initialize(call, params)

    def on_shutdown(self, call: Any, params: dict[str, Any]) -> None:
        self._begin_shutdown(call, params)

    def on_cancel_request(self, call: Any, params: dict[str, Any]) -> None:
        self._cancel_request(params)

    def on_session_started(self, call: Any, params: dict[str, Any]) -> None:
        self._enqueue_observation(call, params)

    def on_session_settled(self, call: Any, params: dict[str, Any]) -> None:
        self._enqueue_observation(call, params)

    def on_turn_started(self, call: Any, params: dict[str, Any]) -> None:
        self._enqueue_observation(call, params)

    def on_turn_settled(self, call: Any, params: dict[str, Any]) -> None:
        self._enqueue_observation(call, params)

    def on_tool_started(self, call: Any, params: dict[str, Any]) -> None:
        self._enqueue_observation(call, params)

    def on_tool_settled(self, call: Any, params: dict[str, Any]) -> None:
        self._enqueue_observation(call, params)

    def _enqueue_observation(self, method: str, params: Any) -> None:
        handlers = self.declared.lifecycle.get(method)
        if handlers and self.negotiated is not None and isinstance(params, dict):
            with self._lock:
                self._observing += 1  # drained by shutdown like requests
                self._observations.append((method, params, handlers))
                start = not self._observer_queued
                self._observer_queued = True
            if start:  # otherwise the worker draining the observations runs this one next
                self._work.put(_OBSERVE, defer=True)

    # ---- initialize ----------------------------------------------------------------------

    def _initialize(self, rid: Id, params: dict[str, Any]) -> None:
        if self.negotiated is not None:
            self._answer_error(rid, L.CODE_INVALID_REQUEST, "initialize was already answered")
            return
        try:
            negotiated, result = negotiate(self.declared, self.api, params)
        except RemoteError as exc:
            self._send_frame({"jsonrpc": "2.0", "id": rid, "error": exc.to_wire()})
            return
        except InvalidParams as exc:
            self._answer_error(rid, L.CODE_INVALID_PARAMS, str(exc), exc.data)
            return
        self.max_bytes = negotiated.max_message_bytes
        self._reader.limit = self.max_bytes
        self._capacity = min(L.MAX_IN_FLIGHT,
                             negotiated.concurrency + negotiated.max_pending)
        self.catalogs = CatalogHistory(self.declared.tools)
        self._dispatcher = Dispatcher(self.declared, self.api, self.catalogs)
        # One worker now (a sequential caller never waits for a thread to start); the rest
        # start when queued work needs them.
        self._work.close()
        self._work = WorkerPool(self._run_item, negotiated.concurrency)
        self._nudge = self._work.nudge  # a handler about to wait hands queued work on
        self._reader.before_block = self._work.stall_timeout
        self._reader.on_timeout = self._work.stalled
        self.negotiated = negotiated
        self._send_frame({"jsonrpc": "2.0", "id": rid, "result": result})

    # ---- workers -------------------------------------------------------------------------

    def _run_item(self, item: Call | str) -> None:
        if type(item) is Call:
            self._serve(item)
        else:
            self._observe_in_order()  # item is _OBSERVE

    def _dispatch(self, call: Call) -> Any:
        dispatcher = self._dispatcher
        assert dispatcher is not None  # admitted only after initialize
        if call.method == METHOD_TOOL_CALL:
            # The hot path, straight to the dispatcher: what check() and on_tool_call do for
            # tool/call (bind the owner; tool_call judges the params), three calls fewer.
            params = call.params
            owner = call.resource_owner = params.get("resource_owner")
            return dispatcher.tool_call(call, params, owner)
        dispatcher.check(call)
        return dispatch(self, call.method, call, call.params)

    # The work methods, each to the dispatcher's handler (_dispatch.py).

    def on_tool_call(self, call: Any, params: dict[str, Any]) -> Any:
        assert self._dispatcher is not None
        return self._dispatcher.tool_call(call, params, call.resource_owner)

    def on_command_execute(self, call: Any, params: dict[str, Any]) -> Any:
        assert self._dispatcher is not None
        return self._dispatcher.command_execute(params, self._dispatcher.context(call))

    def on_hook_run(self, call: Any, params: dict[str, Any]) -> Any:
        assert self._dispatcher is not None
        return self._dispatcher.hook_run(params, self._dispatcher.context(call))

    def on_context_collect(self, call: Any, params: dict[str, Any]) -> Any:
        assert self._dispatcher is not None
        return self._dispatcher.context_collect(params, self._dispatcher.context(call))

    def on_status_collect(self, call: Any, params: dict[str, Any]) -> Any:
        assert self._dispatcher is not None
        return self._dispatcher.status_collect(params, self._dispatcher.context(call))

    def on_tool_render(self, call: Any, params: dict[str, Any]) -> Any:
        assert self._dispatcher is not None
        return self._dispatcher.tool_render(params, self._dispatcher.context(call))

    def on_configure(self, call: Any, params: dict[str, Any]) -> Any:
        assert self._dispatcher is not None
        return self._dispatcher.configure(params)

    def _observe_in_order(self) -> None:
        """Run the queued lifecycle observations in arrival order until none is left.

        Only one worker at a time does this (``_observer_queued``), so a later event never
        overtakes an earlier one on another worker (turn/settled before its turn/started).
        """
        while True:
            with self._lock:
                if not self._observations:
                    self._observer_queued = False
                    return
                method, params, handlers = self._observations.popleft()
            self._observe(method, params, handlers)

    def _observe(self, method: str, params: dict[str, Any],
                 handlers: list[Callable[[Any, Any], Any]]) -> None:
        for handler in handlers:
            try:
                handler(params, {"method": method})
            except Exception:
                log.exception("lifecycle handler failed", event=method)
        with self._lock:
            self._observing -= 1
            if self.closing:
                self._idle.notify_all()

    # ---- shutdown, EOF and protocol failure ----------------------------------------------

    def _begin_shutdown(self, rid: Id, params: dict[str, Any]) -> None:
        deadline = params.get("deadline_ms")
        budget = deadline / 1000 if is_int(deadline) and deadline > 0 else \
            L.SHUTDOWN_DRAIN_MS / 1000
        with self._lock:
            if self._shutdown_started:
                refuse = True
            else:
                refuse = False
                self._shutdown_started = True
                self.closing = True
        if refuse:
            self._answer_error(rid, L.CODE_SHUTTING_DOWN, "shutdown is already in progress")
            return
        threading.Thread(target=self._close, args=(budget, rid), name="octet-shutdown",
                         daemon=True).start()

    def _on_eof(self) -> None:
        self._work.flush()  # work read before EOF runs and answers in the drain
        # The host can no longer answer anything we asked.
        self._fail_waiters()
        if self._shutdown_started:
            # An admitted shutdown is already bounded; give it the EOF budget at most.
            if not self._finished.wait(L.SHUTDOWN_DRAIN_MS / 1000):
                log.warning("shutdown did not finish within the EOF drain budget")
                self._finished.set()
            return
        with self._lock:
            self._shutdown_started = True
            self.closing = True
        self._close(L.SHUTDOWN_DRAIN_MS / 1000, None)

    def _protocol_failure(self, code: int, reason: str, excerpt: bytes) -> None:
        log.error("protocol error: closing the connection", code=code, reason=reason,
                  excerpt=excerpt[:64].decode("utf-8", "replace"))
        self._work.flush()  # the reader's deferred wake-ups for frames before the bad one
        self.exit_code = 1
        self._fail_waiters()
        with self._lock:
            already = self._shutdown_started
            self._shutdown_started = True
            self.closing = True
        if already:
            self._finished.wait(L.SHUTDOWN_DRAIN_MS / 1000)
            self._finished.set()
            return
        for call in list(self.inflight.values()):
            call.token.cancel()
        self._close(L.SHUTDOWN_DRAIN_MS / 1000, None)

    def _wait_idle(self, until: float) -> bool:
        with self._lock:
            while self.inflight or self._observing:
                left = until - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def _close(self, budget: float, ack: Id | None) -> None:
        """Drain, cancel the rest, run on_shutdown, acknowledge: all within ``budget`` s.

        In-flight work may use the budget except a reserve (a fifth, at most one second): a
        quarter of the reserve lets cancelled handlers answer -32800, half of it bounds the
        on_shutdown handlers, and the last quarter is slack for the acknowledgement. With
        nothing in flight the handlers start at once and may use almost the whole budget.
        """
        start = time.monotonic()
        self._work.drain()  # queued work starts now rather than behind a slow handler
        reserve = min(1.0, budget * 0.2)
        drained_by = start + budget - reserve
        if not self._wait_idle(drained_by):
            for call in list(self.inflight.values()):
                call.token.cancel()
            if not self._wait_idle(drained_by + reserve * 0.25):
                for call in list(self.inflight.values()):
                    self._finish(call, error_frame(
                        call.id, L.CODE_REQUEST_CANCELLED,
                        "request cancelled: shutdown deadline reached"))
        self._run_shutdown_hooks(start + budget - reserve * 0.25)
        if ack is not None:
            self._send_frame({"jsonrpc": "2.0", "id": ack, "result": {}})
        self._work.stop()
        self._finished.set()

    def _run_shutdown_hooks(self, until: float) -> None:
        hooks = list(self.declared.shutdown_hooks)
        if not hooks:
            return

        def run_all() -> None:
            for hook in hooks:
                try:
                    hook()
                except Exception:
                    log.exception("on_shutdown handler failed")

        runner = threading.Thread(target=run_all, name="octet-on-shutdown", daemon=True)
        runner.start()
        runner.join(max(0.0, until - time.monotonic()))
        if runner.is_alive():
            log.warning("on_shutdown handlers did not finish before the deadline; abandoned")
