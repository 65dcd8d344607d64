"""Typed reverse calls: requests this side sends the host, and their checked answers.

The layer under the host services (_services.py, _kv.py): the one send, ids,
waiters, timeouts, cancellation of a call whose handler was cancelled, and the generated
validator of each method's result. The connection (_connection.py) routes answers here.
"""

from __future__ import annotations

import itertools
import threading

from . import _limits as L
from ._cancel import Id, current_call
from ._checks import is_int
from ._codec import dumps as _dumps
from ._errors import (
    Cancelled,
    InvalidParams,
    OctetError,
    ProtocolError,
    UnavailableError,
    error_from_wire,
)
from ._generated import senders
from ._generated._models import METHODS
from ._generated._models import validate as validate_type
from ._generated.dispatch import (
    METHOD_CANCEL_REQUEST,
)
from ._negotiate import Negotiated
from ._transport import Writer
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from ._cancel import Call
    from ._workers import WorkerPool


def _timeout(send: senders.Send, params: dict[str, Any]) -> int | None:
    """How long a request may take: a person answers a confirmation or an input request (no
    SDK timeout; cancellation and transport loss still end the wait), and agents.wait waits up
    to its own timeout_ms before the host answers."""
    if send is senders.CONFIRMATION_REQUEST or send is senders.INPUT_REQUEST:
        return None
    if send is senders.AGENT_WAIT:
        return int(params.get("timeout_ms", L.AGENT_WAIT_DEFAULT_MS)) + L.REQUEST_TIMEOUT_MS
    return L.REQUEST_TIMEOUT_MS


class Waiter:
    """The pending answer to one request we sent the host.

    A lock taken at creation is the gate the requesting thread blocks on; resolve or cancel
    opens it. Cheaper than a threading.Event (a Condition and its Python-level wait and
    notify), and a worker may wait on one per host callback.
    """

    __slots__ = ("_gate", "cancelled", "message")

    def __init__(self) -> None:
        self._gate = threading.Lock()
        self._gate.acquire()
        self.message: dict[str, Any] | None = None
        self.cancelled = False

    def wait(self, timeout: float | None) -> bool:
        """True once resolved or cancelled; False when ``timeout`` seconds pass first."""
        return self._gate.acquire(timeout=-1 if timeout is None else timeout)

    def resolve(self, message: dict[str, Any] | None) -> None:
        self.message = message
        self._open()

    def cancel(self) -> None:
        self.cancelled = True
        self._open()

    def _open(self) -> None:
        # Resolve and cancel can both happen (the reader and a canceller): the second
        # release finds the gate open (RuntimeError) or reopens it after the one wait: either
        # is harmless.
        try:  # noqa: SIM105 - contextlib (18 classes) would cost every start to load
            self._gate.release()
        except RuntimeError:
            pass


class HostCalls:
    """The requesting half of a connection; Connection (its subclass) sets the state below."""

    api: str
    legacy: bool
    writer: Writer
    max_bytes: int
    negotiated: Negotiated | None
    inflight: dict[Id, Call]
    _finished: threading.Event
    _work: WorkerPool

    def _init_host_calls(self) -> None:
        self._waiters: dict[Id, Waiter] = {}
        self._ids = itertools.count(1)
        self._last_id = 0
        self._id_lock = threading.Lock()
        self._transport_closed = False

    def _issued(self, rid: Any) -> bool:
        """Whether rid is an id this side sent: a counter value, bare (0.1) or ``py:``-prefixed."""
        if type(rid) is int:
            n = rid
        elif isinstance(rid, str) and rid.startswith("py:") and rid[3:].isdigit() \
                and not rid[3:].startswith("0"):
            n = int(rid[3:])
        else:
            return False
        return 1 <= n <= self._last_id

    def write_message(self, method: str, params: dict[str, Any], rid: Id | None = None) -> None:
        """Send a request (with ``rid``) or a notification; refuse frames over the limit."""
        frame: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if rid is not None:
            frame = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        try:
            data = _dumps(frame).encode()
        except (TypeError, ValueError) as exc:
            raise InvalidParams(f"{method} params are not JSON-serialisable: {exc}") from None
        if len(data) > self.max_bytes:
            raise InvalidParams(
                f"{method} frame is {len(data)} bytes, over the {self.max_bytes}-byte limit")
        self.writer.send(data + b"\n")

    def send(self, send: senders.Send, params: dict[str, Any]) -> Any:
        """The one way the SDK sends the host a method: check that the API version, the
        negotiated feature and the manifest contribution allow it, fill parent_request_id from
        the call in progress, validate the params with the generated validator (the schema's
        bounds live there, nowhere else), then notify, or request and return the result the
        generated validator accepted."""
        what = f"{send.service}.{send.operation}()"
        negotiated = self.negotiated
        if negotiated is None or self._finished.is_set():
            raise UnavailableError(f"{what} is only available after initialize")
        if self.api not in send.versions:
            raise UnavailableError(f"{what} needs API {' or '.join(send.versions)}")
        if send.feature and send.feature not in negotiated.features:
            raise UnavailableError(f"{what} needs the {send.feature!r} feature, which was not "
                                   "negotiated with the host")
        if send.contribution and not negotiated.contributes.get(send.contribution):
            raise UnavailableError(f"{what} needs [contributes] {send.contribution} in the "
                                   "manifest")
        if send.parent and not self.legacy:
            self._fill_parent(send, params, what)
        problems = validate_type(send.params[self.api], params)
        if problems:
            where, _, reason = problems[0].partition(": ")
            raise InvalidParams(f"{send.name} params do not match the schema: {reason}",
                                where[2:] if where.startswith("$.") else None)
        if not send.result:  # a notification: nothing comes back
            self.write_message(send.name, params)
            return None
        return self.request(send.name, params, _timeout(send, params),
                            cancellable=send.service != "catalog")

    def _fill_parent(self, send: senders.Send, params: dict[str, Any], what: str) -> None:
        """The call in progress is the parent unless one is named (or, for presentation, a
        background publisher names the owner instead); a named one must still be served."""
        parent = params.get("parent_request_id")
        if parent is not None:
            if parent not in self.inflight:
                raise UnavailableError(f"{what}: parent request {parent!r} is not being served")
            return
        if "resource_owner" in params:
            return
        call = current_call.get()
        if call is not None:
            params["parent_request_id"] = call.id
        elif any("parent_request_id" in p for p in validate_type(send.params[self.api], params)):
            raise UnavailableError(f"{what} needs an active handler or an explicit "
                                   "parent_request_id=")

    def request(self, method: str, params: dict[str, Any],
                timeout_ms: int | None = L.REQUEST_TIMEOUT_MS, *,
                cancellable: bool = True) -> dict[str, Any]:
        """Send a request to the host and wait for its answer.

        ``timeout_ms=None`` waits for as long as the host takes (user-facing prompts); the
        wait still ends on cancellation of the calling handler or loss of the transport,
        unless ``cancellable=False`` (catalog mutations: the host may commit the revision,
        so the answer is awaited whatever the handler's cancellation).
        """
        if self._finished.is_set() or self.negotiated is None:
            raise UnavailableError(f"{method} needs an initialized, running extension")
        with self._id_lock:  # _issued compares with the highest number handed out
            number = next(self._ids)
            self._last_id = number
        rid: Id = number if self.legacy else f"py:{number}"
        waiter = Waiter()
        self._waiters[rid] = waiter
        if self._transport_closed:
            # _fail_waiters may have swapped the table before our insert.
            self._waiters.pop(rid, None)
            raise ProtocolError(f"transport closed before {method} could be sent")
        call = current_call.get()
        watch = call is not None and not self.legacy and cancellable
        remove = call.token.on_cancel(waiter.cancel) if call and watch else None
        try:
            self.write_message(method, params, rid)
            self._work.nudge()  # queued requests need not wait for this answer
            answered = waiter.wait(None if timeout_ms is None else timeout_ms / 1000)
        except BaseException:
            self._waiters.pop(rid, None)
            raise
        finally:
            if remove is not None:
                remove()
        if not answered or waiter.cancelled:
            self._waiters.pop(rid, None)
            if not self.legacy and not self.writer.broken:
                self.write_message(METHOD_CANCEL_REQUEST, {"id": rid})
            if waiter.cancelled:
                raise Cancelled()
            raise OctetError(f"{method} got no answer within {timeout_ms} ms")
        msg = waiter.message
        if msg is None:
            raise ProtocolError(f"transport closed while waiting for {method}")
        return self._checked_result(method, msg)

    def _checked_result(self, method: str, msg: dict[str, Any]) -> dict[str, Any]:
        if "error" in msg:
            err = msg["error"]
            if not (isinstance(err, dict) and is_int(err.get("code"))
                    and isinstance(err.get("message"), str)):
                raise ProtocolError(f"{method}: malformed error object {err!r}")
            raise error_from_wire(err)
        if "result" not in msg:
            raise ProtocolError(f"{method}: response has neither result nor error")
        result = msg["result"]
        # No SDK code trusts the shape of a host answer unchecked: the generated validator of
        # the method's result type judges it, as the Go and TypeScript SDKs do. Every result
        # type of the registry is an object, so callers index the answer directly.
        info = METHODS.get(method)
        type_name = info.result.get(self.api) if info is not None else None
        problems = validate_type(type_name, result) if type_name else (
            [] if isinstance(result, dict) else ["$: want object"])
        if problems:
            raise ProtocolError(
                f"the host's {method} result does not match the schema: {problems[0]}")
        checked: dict[str, Any] = result
        return checked

    def _resolve(self, rid: Any, valid: bool, msg: dict[str, Any]) -> bool:
        """Hand an answer to its waiter; False when no request of ours is waiting for it."""
        waiter = self._waiters.pop(rid, None) if valid else None
        if waiter is None:
            return False
        waiter.resolve(msg)
        return True

    def _fail_waiters(self) -> None:
        self._transport_closed = True
        waiters, self._waiters = self._waiters, {}
        for waiter in waiters.values():
            waiter.resolve(None)
