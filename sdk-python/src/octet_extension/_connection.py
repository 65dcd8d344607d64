"""The connection: framing, the reader thread, admission of host requests and the answers.

Threads: the reader only decodes frames and queues work (it never runs extension code); a
bounded pool of workers, started as queued work needs them (_workers.py), runs handlers and
each writes its own answer through the Writer, which writes whole frames to the protocol fd,
one lock holder at a time. What a request means (initialize, shutdown, the host methods) is
the session's (_session.py) and the dispatcher's (_dispatch.py); this layer knows only the
envelope, the in-flight table and the bytes.
"""

from __future__ import annotations

import threading

from . import _limits as L
from ._cancel import Call, Id, current_call
from ._codec import MAX_ID_INT as _MAX_ID_INT
from ._codec import dumps as _dumps
from ._codec import lenient as _lenient
from ._codec import loads as _loads
from ._codec import valid_id as _valid_id
from ._errors import Cancelled, InvalidParams, RemoteError, ToolError
from ._faults import WireFault
from ._generated.dispatch import (
    METHOD_TOOL_CALL,
)
from ._hostcall import HostCalls
from ._log import log
from ._negotiate import Negotiated
from ._results import ResultError, check_result_sizes
from ._transport import LineReader, PartialFrameError, Writer
from ._typecheck import TYPE_CHECKING
from ._workers import WorkerPool

if TYPE_CHECKING:
    from typing import Any

_ENVELOPE = frozenset({"jsonrpc", "id", "method", "params", "result", "error"})
# A success answer is these around the id and the encoded result (_encode_result).
_RESULT_HEAD = '{"jsonrpc":"2.0","id":'
_RESULT_MID = ',"result":'


def error_frame(rid: Id, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": error}


class Connection(HostCalls):
    """One host connection's transport state; Session fills in what requests mean."""

    def __init__(self, in_fd: int, out_fd: int, api_version: str) -> None:
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
        self.negotiated: Negotiated | None = None
        self.closing = False
        self._finished = threading.Event()
        # The reader can outlive serve() (it blocks on input until EOF); whoever owns the
        # input fd joins it before closing the fd.
        self.reader_thread = threading.Thread(target=self._read_loop, name="octet-reader",
                                              daemon=True)
        self.exit_code = 0
        self._capacity = 1
        self._init_host_calls()

    # ---- what the session decides --------------------------------------------------------

    def _request(self, rid: Id, method: str, params: dict[str, Any]) -> None:
        raise NotImplementedError

    def _notification(self, method: Any, params: Any) -> None:
        raise NotImplementedError

    def _run_item(self, item: Call | str) -> None:
        raise NotImplementedError

    def _dispatch(self, call: Call) -> Any:
        raise NotImplementedError

    def _on_eof(self) -> None:
        raise NotImplementedError

    def _protocol_failure(self, code: int, reason: str, excerpt: bytes) -> None:
        raise NotImplementedError

    def _close(self, budget: float, ack: Id | None) -> None:
        raise NotImplementedError

    # ---- serving and reading -------------------------------------------------------------

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

    def _route(self, msg: dict[str, Any]) -> None:
        method = msg.get("method")
        if method is None:
            rid = msg.get("id")
            if not self._resolve(rid, _valid_id(rid), msg) and not self._issued(rid):
                # Not a late answer: the host answers an id this side never sent (wire.md §1).
                reason = f"response to id {_dumps(rid)}, which this side never issued"
                self._protocol_failure(L.CODE_INVALID_REQUEST, reason, _dumps(msg).encode()[:64])
            # else: answered, or a late reply to something we stopped waiting for (dropped).
            return
        if "id" not in msg:
            self._notification(method, msg.get("params"))
            return
        rid = msg["id"]
        # The common id (an int in range) judged inline: one call fewer per request.
        if not ((type(rid) is int and 0 <= rid <= _MAX_ID_INT) or _valid_id(rid)):
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

    # ---- admission and cancellation ------------------------------------------------------

    def _admit(self, rid: Id, method: str, params: dict[str, Any]) -> None:
        """Queue a host request for a worker, or refuse it (closing, duplicate id, full)."""
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

    def _cancel_request(self, params: Any) -> None:
        """``$/cancelRequest``: cancel the call; one not yet started is answered at once."""
        if self.legacy or not isinstance(params, dict) or not _valid_id(params.get("id")):
            return
        call = self.inflight.get(params["id"])
        if call is None:
            return  # unknown or finished: ignored (wire.md §1)
        call.token.cancel()
        if not call.started:
            self._finish(call, error_frame(call.id, L.CODE_REQUEST_CANCELLED,
                                           "request cancelled"))

    # ---- running one call and answering it -----------------------------------------------

    def _serve(self, call: Call) -> None:
        if call.done:
            return
        call.started = True
        rid = call.id
        if call.token._cancelled:  # is_cancelled() without the call, on every request
            self._finish(call, error_frame(rid, L.CODE_REQUEST_CANCELLED, "request cancelled"))
            return
        token = current_call.set(call)
        frame: dict[str, Any] | None = None
        try:
            result = self._dispatch(call)
        except Cancelled:
            frame = error_frame(rid, L.CODE_REQUEST_CANCELLED, "request cancelled")
        except (ToolError, RemoteError, WireFault) as exc:
            frame = {"jsonrpc": "2.0", "id": rid, "error": exc.to_wire()}
        except InvalidParams as exc:
            frame = error_frame(rid, L.CODE_INVALID_PARAMS, str(exc), exc.data)
        except Exception as exc:
            if call.token.is_cancelled():
                frame = error_frame(rid, L.CODE_REQUEST_CANCELLED, "request cancelled")
            else:
                if not isinstance(exc, ResultError):
                    log.exception("handler failed", method=call.method, id=rid)
                frame = error_frame(rid, L.CODE_INTERNAL_ERROR, str(exc) or type(exc).__name__)
        finally:
            current_call.reset(token)
        if frame is None:
            self._write_answer(call, self._encode_result(
                rid, result, call.method == METHOD_TOOL_CALL and not self.legacy))
        else:
            self._finish(call, frame)

    def _encode_result(self, rid: Id, result: Any, tool_result: bool) -> bytes:
        """A success answer: the same bytes as encoding {"jsonrpc", "id", "result"} as one
        frame, but only the result goes through the encoder (no frame dict per answer)."""
        try:
            body = _dumps(result)
        except (TypeError, ValueError) as exc:
            return self._encode_answer(error_frame(
                rid, L.CODE_INTERNAL_ERROR, f"result is not JSON-serialisable: {exc}"))
        # Ids are valid_id()-checked: an int (not bool) or a str, so str() is its JSON.
        data = (_RESULT_HEAD + (str(rid) if type(rid) is int else _dumps(rid)) + _RESULT_MID
                + body + "}").encode()
        size = len(data)
        if size <= self.max_bytes and (not tool_result or size <= L.RESULT_MAX_METADATA_BYTES):
            return data + b"\n"  # within every bound: what _checked_size returns, inline
        return self._checked_size(rid, data, result if tool_result else None)

    def _encode_answer(self, frame: dict[str, Any]) -> bytes:
        try:
            data = _dumps(frame).encode()
        except (TypeError, ValueError) as exc:
            return self._encode_answer(error_frame(
                frame["id"], L.CODE_INTERNAL_ERROR, f"result is not JSON-serialisable: {exc}"))
        return self._checked_size(frame["id"], data, None)

    def _checked_size(self, rid: Id, data: bytes, tool_result: dict[str, Any] | None) -> bytes:
        """``data`` newline-terminated, or the error answer when it breaks a size bound."""
        if tool_result is not None and len(data) > L.RESULT_MAX_METADATA_BYTES:
            try:
                check_result_sizes(tool_result)
            except ResultError as exc:
                return self._encode_answer(error_frame(rid, L.CODE_INTERNAL_ERROR, str(exc)))
        if len(data) > self.max_bytes:
            return _dumps(error_frame(
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
        self.writer.send(self._encode_answer(error_frame(rid, code, message, data)))

    def _send_frame(self, frame: dict[str, Any]) -> None:
        self.writer.send(self._encode_answer(frame))
