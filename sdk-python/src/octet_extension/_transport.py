"""JSON-lines framing: one writer thread owning the protocol fd, a bounded line reader, and
the fd shuffle that keeps print() and child processes off the protocol stream."""

from __future__ import annotations

import collections
import contextlib
import errno
import fcntl
import os
import sys
import threading
from typing import Any

from ._log import log

# The hand-off pipe holds up to this much; a sender blocks beyond it (a bounded writer).
_HANDOFF_BYTES = 1 << 20


class Writer:
    """The one writer of the protocol fd: complete frames, in the order they were sent.

    Senders hand whole frames to the writer thread through a private OS pipe (under a lock, so
    frames never interleave); the thread moves bytes from that pipe to the protocol fd with
    splice(2) where available. The hand-off and the write both happen in the kernel, so a
    response reaches the host without waiting for the writer thread to get the GIL back, which
    is what a Python-level queue costs on every frame. The pipe is the writer's bound: when
    1 MiB is waiting (the host is not reading), senders block until it drains.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._read_end, self._write_end = os.pipe()
        _grow_pipe(self._write_end)
        self._lock = threading.Lock()
        self._closed = False
        self.broken = False
        self._thread = threading.Thread(target=self._run, name="octet-writer", daemon=True)
        self._thread.start()

    def send(self, frame: bytes) -> None:
        """Hand over one complete frame (already newline-terminated)."""
        with self._lock:
            if self._closed:
                return
            view = memoryview(frame)
            while view:
                view = view[os.write(self._write_end, view):]

    def _run(self) -> None:
        source, target = self._read_end, self._fd
        splice = getattr(os, "splice", None)
        try:
            while True:
                if splice is not None and not self.broken:
                    try:
                        moved = splice(source, target, _HANDOFF_BYTES)
                    except OSError as exc:
                        if exc.errno in (errno.EINVAL, errno.ENOSYS, errno.EBADF):
                            splice = None  # e.g. a terminal: copy through user space
                            continue
                        self._broke(exc)
                        continue
                    if moved == 0:
                        return
                    continue
                data = os.read(source, _HANDOFF_BYTES)
                if not data:
                    return
                self._write(data)
        finally:
            os.close(source)

    def _write(self, data: bytes) -> None:
        if self.broken:
            return  # keep draining the hand-off pipe so senders never block for good
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view):]
        except OSError as exc:
            self._broke(exc)

    def _broke(self, exc: OSError) -> None:
        self.broken = True
        log.warning("protocol output closed", error=str(exc))

    def close(self, timeout: float = 5.0) -> None:
        """Write everything sent so far, then stop the thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            os.close(self._write_end)  # EOF for the thread once the pipe is drained
        self._thread.join(timeout)


def _grow_pipe(fd: int) -> None:
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setsize is not None:
        with contextlib.suppress(OSError):  # above the system's pipe-max-size: keep 64 KiB
            fcntl.fcntl(fd, setsize, _HANDOFF_BYTES)


class LineReader:
    """Reads ``\\n``-terminated lines of at most ``limit`` bytes (excluding the newline)."""

    def __init__(self, fd: int, limit: int) -> None:
        self._file = open(fd, "rb", buffering=1 << 16, closefd=False)  # noqa: SIM115
        self.limit = limit

    def readline(self) -> bytes | None:
        """The next line without its newline; None at EOF; raises OverflowError if too long."""
        line = self._file.readline(self.limit + 1)
        if not line:
            return None
        if line[-1:] == b"\n":
            return line[:-1]
        if len(line) > self.limit:
            raise OverflowError(line[:64])
        # A final line without a newline (EOF right after it): still a frame.
        return line


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


class WorkQueue:
    """The admission queue between the reader and the workers.

    Items wait in a deque. A worker with nothing to do blocks reading a private pipe, and
    put() writes one byte only when such a sleeper has no wake-up on its way yet; under load
    busy workers take items straight from the deque and no byte is written at all. The pipe
    matters for latency: os.write releases the GIL before it enters the kernel to wake the
    sleeper, so the woken worker usually finds the GIL free instead of sleeping a second time
    until the reader lets go of it (a Python-level queue wakes it with the GIL still held).
    Bounding is the session's job: it refuses work beyond its capacity before calling put.
    """

    def __init__(self) -> None:
        self._items: collections.deque[Any] = collections.deque()
        self._lock = threading.Lock()
        self._sleepers = 0  # workers blocked (or about to block) on the pipe
        self._wakeups = 0   # bytes written and not yet read
        self._read_end, self._write_end = os.pipe()

    def put(self, item: Any) -> None:
        with self._lock:
            self._items.append(item)
            wake = self._sleepers > self._wakeups
            if wake:
                self._wakeups += 1
        if wake:
            os.write(self._write_end, b".")

    def get(self) -> Any:
        while True:
            with self._lock:
                if self._items:
                    return self._items.popleft()
                self._sleepers += 1
            os.read(self._read_end, 1)
            with self._lock:
                self._sleepers -= 1
                self._wakeups -= 1

    def close(self) -> None:
        os.close(self._read_end)
        os.close(self._write_end)
