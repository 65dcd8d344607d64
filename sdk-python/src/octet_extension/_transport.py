"""JSON-lines framing: one writer thread owning the protocol fd, a bounded line reader, and
the fd shuffle that keeps print() and child processes off the protocol stream."""

from __future__ import annotations

import os
import queue
import sys
import threading

from ._log import log

_STOP = b""


class Writer:
    """The only code that writes protocol bytes; frames are queued whole and written in order."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._queue: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self.broken = False
        self._thread = threading.Thread(target=self._run, name="octet-writer", daemon=True)
        self._thread.start()

    def send(self, frame: bytes) -> None:
        """Queue one complete frame (already newline-terminated)."""
        self._queue.put(frame)

    def _run(self) -> None:
        queue_ = self._queue
        get, empty = queue_.get, queue_.empty
        fd = self._fd
        while True:
            frame = get()
            if frame is _STOP:
                return
            # Coalesce frames that queued while we were writing: one syscall for a burst.
            # (empty() rather than get_nowait(): no exception on the common path, which
            # matters because the GIL is contended right after every write.)
            stop = False
            while not empty():
                more = get()
                if more is _STOP:
                    stop = True
                    break
                frame += more
            self._write(fd, frame)
            if stop:
                return

    def _write(self, fd: int, data: bytes) -> None:
        if self.broken:
            return
        view = memoryview(data)
        try:
            while view:
                written = os.write(fd, view)
                view = view[written:]
        except OSError as exc:
            # The host went away; keep draining the queue so senders never block.
            self.broken = True
            log.warning("protocol output closed", error=str(exc))

    def close(self, timeout: float = 5.0) -> None:
        """Write everything queued so far, then stop the thread."""
        self._queue.put(_STOP)
        self._thread.join(timeout)


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
