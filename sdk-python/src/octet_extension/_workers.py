"""The admission queue and the bounded worker pool that drains it.

The pool keeps as few threads runnable as the work needs. Under the GIL every extra runnable
thread turns each syscall (a read, a write, a wake-up) into a GIL hand-off and a context
switch, so a pool that woke a worker per request spent more on switching than on requests.
Instead:

- A worker that finishes an item takes the next queued one without sleeping.
- The reader wakes a sleeping worker only when no worker is awake or already woken: an awake
  worker will reach the item when its current one ends. Wake-ups are deferred to flush(),
  which the reader calls right before it blocks for input, so a batch of frames read
  together costs at most one wake-up, and the woken worker finds the GIL free.
- Workers start lazily, up to the negotiated concurrency, when there is nobody to wake.
- Concurrency still holds when a handler blocks (sleeps, waits for the host, does I/O):
  a handler about to block in the SDK (a host call, a cancellation wait) nudges the pool,
  which wakes or starts a worker for queued work at once. For any other blocking (sleep,
  I/O), while items wait behind busy workers the reader waits for input with a timeout
  (stall_timeout()); if no worker took an item within it, stalled() wakes or starts one.
  A queued request so never waits for a slow handler to finish.

A worker with nothing to do blocks reading a private pipe: os.write releases the GIL before
it enters the kernel to wake the sleeper, so the woken worker usually finds the GIL free (a
Python-level Condition wakes it with the GIL still held, and it sleeps a second time).
Bounding is the session's job: it refuses work beyond its capacity before calling put.
"""

from __future__ import annotations

import collections
import os
import threading
import time

from ._log import log
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# How long queued items may wait behind workers that take nothing before another worker is
# woken for them. Short against any handler that blocks on purpose; long against one fast
# request (tens of µs), so a stream of fast requests stays on the workers already awake.
STALL_SECONDS = 0.001

# What _wake_locked did: nothing was possible, a sleeper's byte is owed, a worker started.
_NONE, _BYTE, _STARTED = 0, 1, 2


class WorkerPool:
    """Runs queued items on at most ``limit`` threads calling ``run(item)``."""

    def __init__(self, run: Callable[[Any], None], limit: int, name: str = "octet-worker",
                 start: int = 1) -> None:
        self._run = run
        self._limit = max(1, limit)
        self._name = name
        self._items: collections.deque[Any] = collections.deque()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._awake = 0     # workers running or about to take an item (not on the pipe)
        self._sleepers = 0  # workers blocked (or about to block) on the pipe
        self._wakeups = 0   # bytes written (or owed) to the pipe and not yet read
        self._owed = 0      # wake-ups deferred puts still have to write (the reader's)
        self._taken = 0     # items taken so far: progress, for stalled()
        self._mark = -1     # _taken when the running stall watch started
        self._deadline: float | None = None  # when that watch runs out
        self._stopping = False
        self._read_end, self._write_end = os.pipe()
        with self._lock:
            for _ in range(min(start, self._limit)):
                self._spawn_locked()

    # ---- the reader's side ---------------------------------------------------------------

    def put(self, item: Any, *, defer: bool = False) -> None:
        """Queue an item. ``defer=True`` (the reader's) leaves a needed wake-up to flush()."""
        with self._lock:
            self._items.append(item)
            wake = self._awake + self._wakeups == 0 and self._wake_locked() == _BYTE
        if wake:
            if defer:
                self._owed += 1
            else:
                os.write(self._write_end, b".")

    def flush(self) -> None:
        """Write the wake-ups deferred puts owe; called by the thread that deferred them."""
        owed = self._owed
        if owed:
            self._owed = 0
            os.write(self._write_end, b"." * owed)

    def stall_timeout(self) -> float | None:
        """Flush, then how long the reader may block before calling stalled() (None: forever).

        A timeout only while items wait that no woken worker is about to take and another
        worker could still be woken or started for them. The watch runs from the last item
        taken, not from this call: input that keeps arriving must not postpone it forever.
        """
        self.flush()
        with self._lock:
            if len(self._items) <= self._wakeups or self._stopping or (
                    self._sleepers <= self._wakeups and len(self._threads) >= self._limit):
                self._deadline = None
                return None
            now = time.monotonic()
            if self._deadline is None or self._taken != self._mark:
                self._mark = self._taken
                self._deadline = now + STALL_SECONDS
            return self._deadline - now

    def stalled(self) -> None:
        """The reader's timed wait ran out: if nothing was taken meanwhile, add a worker.

        One per stall: on a busy machine a worker that is merely descheduled looks stalled
        too, and waking one per waiting item would set them all contending for the GIL. A
        handler that blocks in the SDK (a host call, a cancellation wait) nudges instead, at
        once, so several blocked handlers in a row do not cost a stall each.
        """
        with self._lock:
            self._deadline = None  # the next stall_timeout() starts a new watch
            if self._taken != self._mark or len(self._items) <= self._wakeups:
                return
            how = self._wake_locked()
        if how == _BYTE:
            os.write(self._write_end, b".")

    def nudge(self) -> None:
        """A thread is about to block (e.g. a handler waiting for the host): if items wait
        that no woken worker will take, wake or start one now rather than after a stall."""
        with self._lock:
            how = self._wake_locked() if len(self._items) > self._wakeups else _NONE
        if how == _BYTE:
            os.write(self._write_end, b".")

    def drain(self) -> None:
        """Wake or start a worker for every queued item: nothing more is coming to batch
        (shutdown, EOF), so items must not wait behind a slow handler for the drain."""
        with self._lock:
            wake = 0
            for _ in range(len(self._items) - self._wakeups):
                how = self._wake_locked()
                if how == _NONE:
                    break
                wake += how == _BYTE
        if wake:
            os.write(self._write_end, b"." * wake)

    # ---- lifecycle -----------------------------------------------------------------------

    def stop(self) -> None:
        """Workers exit once the queue is empty; no new ones start."""
        with self._lock:
            self._stopping = True
            wake = self._sleepers - self._wakeups
            self._wakeups += max(0, wake)
        if wake > 0:
            os.write(self._write_end, b"." * wake)

    def join(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for every worker to exit; True if all did."""
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in threads)

    def close(self) -> None:
        os.close(self._read_end)
        os.close(self._write_end)

    # ---- internals -----------------------------------------------------------------------

    def _wake_locked(self) -> int:
        """Claim a sleeper's wake-up (_BYTE: the caller writes it) or start a worker."""
        if self._sleepers > self._wakeups:
            self._wakeups += 1
            return _BYTE
        if len(self._threads) < self._limit and not self._stopping:
            self._spawn_locked()
            return _STARTED
        return _NONE

    def _spawn_locked(self) -> None:
        # Counted awake from here: it takes queued items before it ever sleeps.
        self._awake += 1
        thread = threading.Thread(target=self._loop, daemon=True,
                                  name=f"{self._name}-{len(self._threads)}")
        self._threads.append(thread)
        thread.start()

    def _loop(self) -> None:
        lock, items, run, read_end = self._lock, self._items, self._run, self._read_end
        while True:
            with lock:
                if items:
                    self._taken += 1
                    item = items.popleft()
                else:
                    item = None
                    self._awake -= 1
                    if self._stopping:
                        return
                    self._sleepers += 1
            if item is not None:
                try:
                    run(item)
                except Exception:  # pragma: no cover - run() answers its own failures
                    log.exception("worker item failed")
                continue
            os.read(read_end, 1)
            with lock:
                self._sleepers -= 1
                self._wakeups -= 1
                self._awake += 1
