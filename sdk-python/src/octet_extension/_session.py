"""One connection to a host: reader thread, worker pool, writer, negotiation and shutdown.

Threads: the reader only decodes frames and queues work (it never runs extension code); a
bounded pool of workers, started as queued work needs them (_workers.py), runs handlers and
each writes its own answer through the Writer, which writes whole frames to the protocol fd,
one lock holder at a time. A session is created per
``serve()``, so an Extension can be served again (tests do this).
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections import deque
from collections.abc import Callable

from . import _limits as L
from ._cancel import Call, Id, current_call
from ._catalog import CatalogHistory
from ._checks import check_resource_owner, is_int
from ._codec import dumps as _dumps
from ._codec import lenient as _lenient
from ._codec import loads as _loads
from ._codec import valid_id as _valid_id
from ._errors import (
    Cancelled,
    InvalidParams,
    OctetError,
    ProtocolError,
    RemoteError,
    ToolError,
    UnavailableError,
    error_from_wire,
)
from ._faults import WireFault, handler_exception, unknown_tool
from ._log import log
from ._models import METHODS
from ._models import validate as validate_type
from ._negotiate import Negotiated, negotiate
from ._results import (
    ResultError,
    check_result_sizes,
    command_result,
    context_result,
    hook_result,
    render_result,
    status_result,
    tool_result_01,
    tool_result_02,
)
from ._transport import LineReader, PartialFrameError, Writer
from ._typecheck import TYPE_CHECKING
from ._workers import WorkerPool

if TYPE_CHECKING:
    from typing import Any

    from ._extension import Extension

_HOST_METHODS = frozenset({
    "tool/call", "command/execute", "hook/run", "context/collect", "status/collect",
    "tool/render",
})
_ENVELOPE = frozenset({"jsonrpc", "id", "method", "params", "result", "error"})
# A success answer is these around the id and the encoded result (_encode_result).
_RESULT_HEAD = '{"jsonrpc":"2.0","id":'
_RESULT_MID = ',"result":'
_MISSING = object()  # a default no frame can hold
# What a tool handler that takes no context is passed (adapt()'s wrapper drops it).
_UNUSED_CONTEXT: dict[str, Any] = {}
_TOOL_CALL_FIELDS = frozenset({"name", "arguments", "catalog_revision", "resource_owner",
                               "call_id"})
_OBSERVE = "observe"  # work item: drain the queued lifecycle observations, in order


class _Waiter:
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
        with contextlib.suppress(RuntimeError):
            self._gate.release()


class Session:
    def __init__(self, ext: Extension, in_fd: int, out_fd: int, api_version: str) -> None:
        self.ext = ext
        self.api = api_version
        self.legacy = api_version == "0.1"
        self.writer = Writer(out_fd)
        self.max_bytes = L.MAX_MESSAGE_BYTES
        # Replaced by the negotiated pool at initialize; until then nothing is queued.
        self._work = WorkerPool(self._run_item, 1, start=0)
        self._nudge = self._work.nudge
        # The reader defers its wake-ups of workers to right before it blocks for input, and
        # watches for queued work stuck behind busy workers while it waits (_workers.py).
        self._reader = LineReader(in_fd, self.max_bytes, self._work.stall_timeout,
                                  self._work.stalled)
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self.inflight: dict[Id, Call] = {}
        self._waiters: dict[Id, _Waiter] = {}
        self._ids = itertools.count(1)
        self._last_id = 0
        self._id_lock = threading.Lock()
        self.negotiated: Negotiated | None = None
        self.catalogs: CatalogHistory | None = None
        self.closing = False
        self._shutdown_started = False
        self._finished = threading.Event()
        # The reader can outlive serve() (it blocks on input until EOF); whoever owns the
        # input fd joins it before closing the fd.
        self.reader_thread = threading.Thread(target=self._read_loop, name="octet-reader",
                                              daemon=True)
        self.exit_code = 0
        self.presentation_revision = -1
        self.presentation_lock = threading.Lock()
        self._observing = 0
        # Lifecycle observations run one at a time in arrival order (as in the Go and
        # TypeScript SDKs): queued here, drained by one worker at a time.
        self._observations: deque[
            tuple[str, dict[str, Any], list[Callable[[Any, Any], Any]]]] = deque()
        self._observer_queued = False
        self._transport_closed = False
        self._capacity = 1

    # ---- lifecycle -------------------------------------------------------------------------

    def serve(self) -> int:
        self.reader_thread.start()
        self._finished.wait()
        self.writer.close()
        # Workers were told to stop; close the hand-off pipe once they are gone (a handler
        # that ignores cancellation keeps it open, and the process exits anyway).
        if self._work.join(0.5):
            self._work.close()
        return self.exit_code

    def _read_loop(self) -> None:
        try:
            while True:
                try:
                    line = self._reader.readline()
                except OverflowError as exc:
                    self._protocol_failure(
                        L.CODE_INVALID_REQUEST,
                        f"frame longer than {self.max_bytes} bytes",
                        bytes(exc.args[0]),
                    )
                    return
                except PartialFrameError as exc:
                    self._protocol_failure(
                        L.CODE_INVALID_REQUEST,
                        "stream ended inside a frame (no terminating newline)",
                        bytes(exc.args[0]),
                    )
                    return
                except OSError as exc:
                    log.error("protocol input failed", error=str(exc))
                    line = None
                if line is None:
                    self._on_eof()
                    return
                try:
                    message = _loads(line)
                except ValueError as exc:  # includes UnicodeDecodeError
                    if self._refuse_strict(line, exc):
                        continue
                    self._protocol_failure(L.CODE_PARSE_ERROR, f"invalid JSON: {exc}", line)
                    return
                if type(message) is not dict:
                    what = "a batch (JSON array)" if isinstance(message, list) else "not an object"
                    self._protocol_failure(L.CODE_INVALID_REQUEST, f"frame is {what}", line)
                    return
                self._route(message)
        except Exception:  # pragma: no cover - a bug here must not hang the host
            log.exception("reader crashed")
            self._work.flush()  # work queued before the crash still runs and answers
            self.exit_code = 1
            self._close(L.SHUTDOWN_DRAIN_MS / 1000, None)

    def _refuse_strict(self, line: bytes, exc: ValueError) -> bool:
        """Answer a request whose JSON is well formed but breaks a wire rule (a repeated key,
        a lone surrogate, a number beyond float64) instead of closing the stream, as the Go
        and TypeScript SDKs do: -32600 when the envelope repeats a key, else -32602. A
        notification is dropped; False leaves a response or a non-object to the caller."""
        rescued = _lenient(line)
        if rescued is None:
            return False
        msg, envelope_repeats = rescued
        if not isinstance(msg.get("method"), str):
            return False
        if "id" not in msg:
            log.warning("dropped a malformed notification", reason=str(exc),
                        excerpt=line[:64].decode("utf-8", "replace"))
            return True
        if not _valid_id(msg["id"]):
            return False
        if envelope_repeats:
            self._answer_error(msg["id"], L.CODE_INVALID_REQUEST, f"invalid request: {exc}")
        else:
            self._answer_error(msg["id"], L.CODE_INVALID_PARAMS, f"invalid params: {exc}",
                               {"reason": str(exc)})
        return True

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

    def _route(self, msg: dict[str, Any]) -> None:
        method = msg.get("method")
        if method is None:
            rid = msg.get("id")
            waiter = self._waiters.pop(rid, None) if _valid_id(rid) else None
            if waiter is not None:
                waiter.resolve(msg)
            elif not self._issued(rid):
                # Not a late answer: the host answers an id this side never sent (wire.md §1).
                reason = f"response to id {_dumps(rid)}, which this side never issued"
                self._protocol_failure(L.CODE_INVALID_REQUEST, reason, _dumps(msg).encode()[:64])
            # else: a late reply to something we stopped waiting for; dropped on purpose.
            return
        if "id" not in msg:
            self._notification(method, msg.get("params"))
            return
        rid = msg["id"]
        if not _valid_id(rid):
            self._protocol_failure(L.CODE_INVALID_REQUEST, f"request id {rid!r} is invalid",
                                   _dumps(msg).encode()[:64])
            return
        params = msg.get("params", {})
        problem = None
        if msg.get("jsonrpc") != "2.0":
            problem = 'jsonrpc must be "2.0"'
        elif not isinstance(method, str):
            problem = "method must be a string"
        elif not isinstance(params, dict):
            problem = "params must be an object"
        elif not _ENVELOPE.issuperset(msg):
            problem = f"unknown envelope fields {sorted(set(msg) - _ENVELOPE)}"
        if problem is not None:
            self._answer_error(rid, L.CODE_INVALID_REQUEST, problem)
            return
        self._request(rid, method, params)

    def _request(self, rid: Id, method: str, params: dict[str, Any]) -> None:
        if method == "initialize":
            self._initialize(rid, params)
            return
        if method == "shutdown":  # also before initialize: a host may give up on a handshake
            self._begin_shutdown(rid, params)
            return
        if self.negotiated is None:
            self._answer_error(rid, L.CODE_INVALID_REQUEST, "initialize has not completed")
            return
        if method not in _HOST_METHODS:
            self._answer_error(rid, L.CODE_METHOD_NOT_FOUND, f"method {method!r} is not served",
                               {"method": method})
            return
        with self._lock:
            if self.closing:
                refusal: tuple[int, str, Any] | None = (
                    L.CODE_SHUTTING_DOWN, "extension is shutting down", None)
            elif rid in self.inflight:
                refusal = (L.CODE_INVALID_REQUEST, f"id {rid!r} is already in flight", None)
            elif len(self.inflight) >= self._capacity:
                refusal = (L.CODE_OVERLOADED,
                           f"{self._capacity} requests already in flight or queued",
                           {"limit": self._capacity})
            else:
                refusal = None
                call = Call(rid, method, params, self._nudge)
                self.inflight[rid] = call
        if refusal is not None:
            self._answer_error(rid, *refusal)
            return
        self._work.put(call, defer=True)  # woken when the reader next blocks (LineReader)

    def _notification(self, method: Any, params: Any) -> None:
        if method == "$/cancelRequest":
            if self.legacy or not isinstance(params, dict) or not _valid_id(params.get("id")):
                return
            call = self.inflight.get(params["id"])
            if call is None:
                return  # unknown or finished: ignored (wire.md §1)
            call.token.cancel()
            if not call.started:
                self._finish(call, self._error_frame(call.id, L.CODE_REQUEST_CANCELLED,
                                                     "request cancelled"))
            return
        handlers = self.ext._lifecycle.get(method) if isinstance(method, str) else None
        if handlers and self.negotiated is not None and isinstance(params, dict):
            with self._lock:
                self._observing += 1  # drained by shutdown like requests
                self._observations.append((method, params, handlers))
                start = not self._observer_queued
                self._observer_queued = True
            if start:  # otherwise the worker draining the observations runs this one next
                self._work.put(_OBSERVE, defer=True)

    # ---- initialize ------------------------------------------------------------------------

    def _initialize(self, rid: Id, params: dict[str, Any]) -> None:
        if self.negotiated is not None:
            self._answer_error(rid, L.CODE_INVALID_REQUEST, "initialize was already answered")
            return
        try:
            negotiated, result = negotiate(self.ext, self.api, params)
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
        self.catalogs = CatalogHistory(self.ext._tools)
        # One worker now (a sequential caller never waits for a thread to start); the rest
        # start when queued work needs them.
        self._work.close()
        self._work = WorkerPool(self._run_item, negotiated.concurrency)
        self._nudge = self._work.nudge  # a handler about to wait hands queued work on
        self._reader.before_block = self._work.stall_timeout
        self._reader.on_timeout = self._work.stalled
        self.negotiated = negotiated
        self._send_frame({"jsonrpc": "2.0", "id": rid, "result": result})

    # ---- workers ---------------------------------------------------------------------------

    def _run_item(self, item: Call | str) -> None:
        if type(item) is Call:
            self._serve(item)
        else:
            self._observe_in_order()  # item is _OBSERVE

    def _serve(self, call: Call) -> None:
        if call.done:
            return
        call.started = True
        rid = call.id
        if call.token.is_cancelled():
            self._finish(call, self._error_frame(rid, L.CODE_REQUEST_CANCELLED,
                                                 "request cancelled"))
            return
        token = current_call.set(call)
        frame: dict[str, Any] | None = None
        try:
            result = self._dispatch(call)
        except Cancelled:
            frame = self._error_frame(rid, L.CODE_REQUEST_CANCELLED, "request cancelled")
        except (ToolError, RemoteError, WireFault) as exc:
            frame = {"jsonrpc": "2.0", "id": rid, "error": exc.to_wire()}
        except InvalidParams as exc:
            frame = self._error_frame(rid, L.CODE_INVALID_PARAMS, str(exc), exc.data)
        except Exception as exc:
            if call.token.is_cancelled():
                frame = self._error_frame(rid, L.CODE_REQUEST_CANCELLED, "request cancelled")
            else:
                if not isinstance(exc, ResultError):
                    log.exception("handler failed", method=call.method, id=rid)
                frame = self._error_frame(rid, L.CODE_INTERNAL_ERROR,
                                          str(exc) or type(exc).__name__)
        finally:
            current_call.reset(token)
        if frame is None:
            self._write_answer(call, self._encode_result(
                rid, result, call.method == "tool/call" and not self.legacy))
        else:
            self._finish(call, frame)

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

    def _dispatch(self, call: Call) -> Any:
        params = call.params
        method = call.method
        owner = params.get("resource_owner")
        call.resource_owner = owner
        if method == "tool/call":
            return self._tool_call(call, params, owner)
        context: dict[str, Any] = {
            "request_id": call.id, "method": method, "resource_owner": owner,
            "cancellation": call.token,
        }
        ext = self.ext
        # The other host methods are not on the hot path: check their params against the
        # generated schema (unknown fields, types, enums), naming the first violation.
        type_name = METHODS[method].params.get(self.api)
        problems = validate_type(type_name, params) if type_name else []
        if problems:
            path, _, reason = problems[0].partition(": ")
            raise InvalidParams(reason, path.replace("$", "", 1).lstrip(".") or "params")
        if method == "command/execute":
            name = params.get("name")
            entry = ext._commands.get(name) if isinstance(name, str) else None
            if entry is None:
                raise InvalidParams(f"unknown command {name!r}", "name")
            args = params.get("arguments", [])
            if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                raise InvalidParams("must be an array of strings", "arguments")
            context["name"] = name
            return command_result(entry[1](args, context))
        if method == "hook/run":
            hook_name = params.get("hook")
            hook = ext._hooks.get(hook_name) if isinstance(hook_name, str) else None
            if hook is None:
                raise InvalidParams(f"hook {hook_name!r} is not registered", "hook")
            payload = params.get("payload", {})
            if not isinstance(payload, dict):
                raise InvalidParams("must be an object", "payload")
            context["hook"] = hook_name
            return hook_result(hook(payload, context))
        if method == "context/collect":
            if ext._context is None:
                raise InvalidParams("no context handler is registered")
            return context_result(ext._context(params, context))
        if method == "status/collect":
            surface = params.get("surface", "status")
            handler = ext._status.get(surface) if isinstance(surface, str) else None
            if handler is None:
                raise InvalidParams(f"no status handler for surface {surface!r}", "surface")
            return status_result(handler(params, context), str(surface))
        # tool/render
        name = params.get("name")
        renderer = ext._renderers.get(name) if isinstance(name, str) else None
        if renderer is None:
            raise InvalidParams(f"no renderer for tool {name!r}", "name")
        return render_result(renderer(params, context))

    def _tool_call(self, call: Call, params: dict[str, Any], owner: Any) -> Any:
        if not _TOOL_CALL_FIELDS.issuperset(params):
            unknown = sorted(set(params) - _TOOL_CALL_FIELDS)
            raise InvalidParams(f"unknown field {unknown[0]!r}", "params")
        name = params.get("name")
        if not isinstance(name, str):
            raise InvalidParams("must be a string", "name")
        if "resource_owner" in params:
            check_resource_owner(params["resource_owner"])
        args = params.get("arguments", _MISSING)
        if args is _MISSING:
            args = {}
        elif not isinstance(args, dict):
            raise InvalidParams("must be an object", "arguments")
        revision = params.get("catalog_revision")
        if revision is not None and not (is_int(revision) and revision >= 0):
            raise InvalidParams("must be an integer >= 0", "catalog_revision")
        assert self.catalogs is not None
        spec = self.catalogs.lookup(revision).get(name)
        if spec is None:
            raise unknown_tool(name)
        if spec.check_arguments is not None:
            spec.check_arguments(args, "/arguments")
        try:
            if spec.uses_context:
                value = spec.handler(args, {
                    "request_id": call.id, "method": "tool/call", "resource_owner": owner,
                    "cancellation": call.token, "name": name, "call_id": params.get("call_id"),
                    "catalog_revision": revision,
                })
            else:
                value = spec.handler(args, _UNUSED_CONTEXT)
        except OctetError:
            raise  # ToolError, InvalidParams, Cancelled, RemoteError: each has its answer
        except Exception as exc:
            if call.token.is_cancelled():
                raise
            log.exception("handler failed", method="tool/call", id=call.id, tool=name)
            raise handler_exception(name, exc) from None
        if self.legacy:
            return tool_result_01(value, spec)
        return tool_result_02(value, spec)

    # ---- answering -------------------------------------------------------------------------

    @staticmethod
    def _error_frame(rid: Id, code: int, message: str, data: Any = None) -> dict[str, Any]:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        return {"jsonrpc": "2.0", "id": rid, "error": error}

    def _encode_result(self, rid: Id, result: Any, tool_result: bool) -> bytes:
        """A success answer: the same bytes as encoding {"jsonrpc", "id", "result"} as one
        frame, but only the result goes through the encoder (no frame dict per answer)."""
        try:
            body = _dumps(result)
        except (TypeError, ValueError) as exc:
            return self._encode_answer(self._error_frame(
                rid, L.CODE_INTERNAL_ERROR, f"result is not JSON-serialisable: {exc}"))
        # Ids are valid_id()-checked: an int (not bool) or a str, so str() is its JSON.
        data = (_RESULT_HEAD + (str(rid) if type(rid) is int else _dumps(rid)) + _RESULT_MID
                + body + "}").encode()
        return self._checked_size(rid, data, result if tool_result else None)

    def _encode_answer(self, frame: dict[str, Any]) -> bytes:
        try:
            data = _dumps(frame).encode()
        except (TypeError, ValueError) as exc:
            return self._encode_answer(self._error_frame(
                frame["id"], L.CODE_INTERNAL_ERROR, f"result is not JSON-serialisable: {exc}"))
        return self._checked_size(frame["id"], data, None)

    def _checked_size(self, rid: Id, data: bytes, tool_result: dict[str, Any] | None) -> bytes:
        """``data`` newline-terminated, or the error answer when it breaks a size bound."""
        if tool_result is not None and len(data) > L.RESULT_MAX_METADATA_BYTES:
            try:
                check_result_sizes(tool_result)
            except ResultError as exc:
                return self._encode_answer(self._error_frame(rid, L.CODE_INTERNAL_ERROR, str(exc)))
        if len(data) > self.max_bytes:
            return _dumps(self._error_frame(
                rid, L.CODE_INTERNAL_ERROR,
                f"result is {len(data)} bytes, over the {self.max_bytes}-byte message limit",
                {"size": len(data), "limit": self.max_bytes},
            )).encode() + b"\n"
        return data + b"\n"

    def _finish(self, call: Call, frame: dict[str, Any]) -> None:
        self._write_answer(call, self._encode_answer(frame))

    def _write_answer(self, call: Call, data: bytes) -> None:
        with self._lock:
            if call.done:
                return  # the other side of the terminal race already answered
            call.done = True
        # Written before the call leaves the in-flight table, so a drain that sees the table
        # empty acknowledges shutdown strictly after every answer.
        self.writer.send(data)
        with self._lock:
            self.inflight.pop(call.id, None)
            if self.closing:
                self._idle.notify_all()

    def _answer_error(self, rid: Id, code: int, message: str, data: Any = None) -> None:
        self.writer.send(self._encode_answer(self._error_frame(rid, code, message, data)))

    def _send_frame(self, frame: dict[str, Any]) -> None:
        self.writer.send(self._encode_answer(frame))

    # ---- requests to the host --------------------------------------------------------------

    def send(self, method: str, params: dict[str, Any], rid: Id | None = None) -> None:
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

    def request(self, method: str, params: dict[str, Any],
                timeout_ms: int | None = L.REQUEST_TIMEOUT_MS) -> dict[str, Any]:
        """Send a request to the host and wait for its answer.

        ``timeout_ms=None`` waits for as long as the host takes (user-facing prompts); the
        wait still ends on cancellation of the calling handler or loss of the transport.
        """
        if self._finished.is_set() or self.negotiated is None:
            raise UnavailableError(f"{method} needs an initialized, running extension")
        with self._id_lock:  # _issued compares with the highest number handed out
            number = next(self._ids)
            self._last_id = number
        rid: Id = number if self.legacy else f"py:{number}"
        waiter = _Waiter()
        self._waiters[rid] = waiter
        if self._transport_closed:
            # _fail_waiters may have swapped the table before our insert.
            self._waiters.pop(rid, None)
            raise ProtocolError(f"transport closed before {method} could be sent")
        call = current_call.get()
        remove = call.token.on_cancel(waiter.cancel) if call and not self.legacy else None
        try:
            self.send(method, params, rid)
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
                self.send("$/cancelRequest", {"id": rid})
            if waiter.cancelled:
                raise Cancelled()
            raise OctetError(f"{method} got no answer within {timeout_ms} ms")
        msg = waiter.message
        if msg is None:
            raise ProtocolError(f"transport closed while waiting for {method}")
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

    def _fail_waiters(self) -> None:
        self._transport_closed = True
        waiters, self._waiters = self._waiters, {}
        for waiter in waiters.values():
            waiter.resolve(None)

    # ---- shutdown, EOF and protocol failure ------------------------------------------------

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
                    self._finish(call, self._error_frame(
                        call.id, L.CODE_REQUEST_CANCELLED,
                        "request cancelled: shutdown deadline reached"))
        self._run_shutdown_hooks(start + budget - reserve * 0.25)
        if ack is not None:
            self._send_frame({"jsonrpc": "2.0", "id": ack, "result": {}})
        self._work.stop()
        self._finished.set()

    def _run_shutdown_hooks(self, until: float) -> None:
        hooks = list(self.ext._shutdown_hooks)
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
