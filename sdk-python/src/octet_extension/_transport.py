"""JSON-lines framing: a lock-serialised writer of the protocol fd, a bounded line reader, and
the fd shuffle that keeps print() and child processes off the stream."""

from __future__ import annotations

import collections
import fcntl
import os
import sys
import threading

from ._log import log
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# The protocol pipe is grown to this much where the OS allows: the writer's bound (a sender
# blocks only when the host has stopped reading about 1 MiB).
_PIPE_BYTES = 1 << 20
# One read(2) of protocol input.
_READ_BYTES = 1 << 16


class Writer:
    """The one writer of the protocol fd: complete frames, in the order they were sent.

    Senders queue their frame, then take the writer lock; the holder writes every queued
    frame in one os.write, so frames never interleave, keep their send order, and answers
    that are ready together cost one syscall (and one GIL release) instead of one each. A
    sender that finds its frame already written by the holder before it returns without
    writing. send() returns only once its frame is written whole. There is no writer thread:
    handing a frame to one costs a second thread wake-up and GIL round trip on every answer,
    and os.write releases the GIL while the kernel copies, so other threads keep running. The
    kernel pipe is the bound: it is grown to 1 MiB, and a sender blocks only when that much is
    waiting because the host stopped reading. After a write error (the host closed its end)
    frames are dropped, so senders never block for good.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        _grow_pipe(fd)
        self._lock = threading.Lock()
        # Frames sent and not yet written; appended without the lock (deque.append is atomic).
        self._queued: collections.deque[bytes] = collections.deque()
        self._closed = False
        self.broken = False

    def send(self, frame: bytes) -> None:
        """Write one complete frame (already newline-terminated), or drop it once broken."""
        queued = self._queued
        queued.append(frame)
        with self._lock:
            if not queued:
                return  # the previous holder wrote it
            if len(queued) == 1:
                data = queued.popleft()
            else:
                data = b"".join([queued.popleft() for _ in range(len(queued))])
            if self._closed or self.broken:
                return
            try:
                written = os.write(self._fd, data)
            except OSError as exc:
                self._broke(exc)
                return
            if written < len(data):
                self._write_rest(data, written)

    def _write_rest(self, data: bytes, written: int) -> None:
        """A frame beyond the pipe's free space takes several writes (holding the lock)."""
        view = memoryview(data)
        try:
            while written < len(data):
                written += os.write(self._fd, view[written:])
        except OSError as exc:
            self._broke(exc)
        finally:
            if written < len(data) and not self.broken:
                # Interrupted mid-frame (e.g. KeyboardInterrupt): the stream is torn, and
                # anything written after it would be read as part of a corrupt line.
                import errno  # here: only a torn frame needs it

                self._broke(OSError(errno.EIO, "frame interrupted mid-write"))

    def _broke(self, exc: OSError) -> None:
        self.broken = True
        log.warning("protocol output closed", error=str(exc))

    def close(self, timeout: float = 5.0) -> None:
        """Stop writing: every frame sent before returns has been written whole.

        Waits at most ``timeout`` seconds for a sender blocked on a host that stopped reading.
        """
        acquired = self._lock.acquire(timeout=timeout)
        self._closed = True
        if acquired:
            self._lock.release()


def _grow_pipe(fd: int) -> None:
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setsize is not None:
        # Not a pipe (a file, a terminal) or above the system's pipe-max-size: keep as is.
        try:  # noqa: SIM105 - contextlib (18 classes) would cost every start to load
            fcntl.fcntl(fd, setsize, _PIPE_BYTES)
        except OSError:
            pass


class PartialFrameError(Exception):
    """The input ended inside a line; ``args[0]`` is its first bytes."""


class LineReader:
    """Reads ``\\n``-terminated lines of at most ``limit`` bytes (excluding the newline).

    ``before_block`` runs only when no complete line is buffered, right before the reader
    blocks for input, so every frame of one read is decoded and queued first and a batch
    costs one round of wake-ups. It returns how long to wait for input (None: as long as it
    takes); when that passes with no input, ``on_timeout`` runs and ``before_block`` is asked
    again. The session hands it the worker pool's deferred wake-ups and stall check: a worker
    woken right before read(2) finds the GIL free instead of waking, finding the reader still
    holding the GIL on its way back up the stack, and sleeping once more.
    """

    def __init__(self, fd: int, limit: int,
                 before_block: Callable[[], float | None] | None = None,
                 on_timeout: Callable[[], None] | None = None) -> None:
        self._fd = fd
        self._buf = b""
        self._start = 0  # the first unread byte of _buf
        self.limit = limit
        self.before_block = before_block
        self.on_timeout = on_timeout
        self._poll: Any = None  # a select.poll, made on first use

    def readline(self) -> bytes | None:
        """The next line without its newline; None at EOF; raises OverflowError if too long
        and PartialFrameError when the input ends inside a line."""
        buf, start = self._buf, self._start
        end = buf.find(b"\n", start)
        if end < 0:
            # Collect chunks until one holds a newline (joined once: no quadratic copying).
            parts = [buf[start:]] if start < len(buf) else []
            size = len(buf) - start
            while True:
                if size > self.limit:
                    raise OverflowError(b"".join(parts)[:64])
                self._wait_for_input()
                data = os.read(self._fd, _READ_BYTES)
                if not data:
                    self._buf, self._start = b"", 0
                    if parts:
                        # Bytes after the last newline are not a frame (the host died
                        # mid-write): never decoded, a framing fault (wire.md §1).
                        raise PartialFrameError(b"".join(parts)[:64])
                    return None
                newline = data.find(b"\n")
                parts.append(data)
                if newline >= 0:
                    buf, start, end = b"".join(parts), 0, size + newline
                    break
                size += len(data)
        self._buf, self._start = buf, end + 1
        if end - start > self.limit:
            raise OverflowError(buf[start:start + 64])
        return buf[start:end]

    def _wait_for_input(self) -> None:
        if self.before_block is None:
            return
        timeout = self.before_block()
        while timeout is not None:
            if self._poll is None:
                import select  # on first use: not every extension ever waits with a timeout

                self._poll = select.poll()
                self._poll.register(self._fd, select.POLLIN)
            # A wait already run out (input kept arriving meanwhile) is reported at once.
            # poll() rounds a fractional millisecond up itself (no math.ceil: no math module).
            if timeout > 0 and self._poll.poll(timeout * 1000):
                return  # input (or EOF, or an error read(2) will report)
            if self.on_timeout is not None:
                self.on_timeout()
            timeout = self.before_block()


def protect_stdio() -> tuple[int, int]:
    """Move the protocol to private fds before serving (wire.md §10).

    The protocol reads a private duplicate of fd 0 and writes a private duplicate of fd 1.
    Then fd 1 points at fd 2 and fd 0 at /dev/null, so print(), C libraries and child
    processes that inherit stdout write diagnostics to stderr, and nothing can steal input.
    ``os.dup`` makes non-inheritable fds, so children never see the protocol.
    """
    sys.stdout.flush()
    proto_in = os.dup(0)
    proto_out = os.dup(1)
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    return proto_in, proto_out
