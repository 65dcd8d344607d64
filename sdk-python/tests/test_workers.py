"""The worker pool: every item runs, fast work stays on one thread, blocked work hands off."""

from __future__ import annotations

import threading
from collections.abc import Callable

from octet_extension._workers import WorkerPool


def test_worker_pool_runs_every_item_and_stops() -> None:
    got: list[int] = []
    lock = threading.Lock()

    def run(item: int) -> None:
        with lock:
            got.append(item)

    pool = WorkerPool(run, 3)
    for i in range(300):
        pool.put(i)
    pool.drain()
    pool.stop()
    assert pool.join(10)
    pool.close()
    assert sorted(got) == list(range(300))


def blocking_runner() -> tuple[threading.Event, list[str], Callable[[str], None]]:
    """A work function that blocks on the item "block" until released; records what ran."""
    release = threading.Event()
    ran: list[str] = []

    def run(item: str) -> None:
        if item == "block":
            release.wait(10)
        ran.append(item)

    return release, ran, run


def release_and_stop(pool: WorkerPool, release: threading.Event) -> None:
    """Let the blocked item finish, then stop the pool and wait for its workers."""
    release.set()
    pool.stop()
    assert pool.join(10)
    pool.close()


def test_worker_pool_starts_workers_for_items_stuck_behind_a_blocked_one() -> None:
    # A handler that blocks must not hold up queued work: the reader's timed wait notices
    # that nothing was taken and another worker takes it.
    release, ran, run = blocking_runner()

    pool = WorkerPool(run, 2)
    pool.put("block", defer=True)
    pool.put("next", defer=True)
    timeout = pool.stall_timeout()  # flushes the deferred wake-up
    for _ in range(2000):
        if "next" in ran:
            break
        threading.Event().wait(timeout or 0.001)  # None: every worker is already started
        if timeout is not None:
            pool.stalled()
        timeout = pool.stall_timeout()
    assert ran == ["next"]
    release_and_stop(pool, release)
    assert ran == ["next", "block"]


def test_worker_pool_keeps_fast_work_on_the_awake_worker() -> None:
    # Items queued while a worker is busy are not a reason to wake another thread.
    names: set[str] = set()
    pool = WorkerPool(lambda _: names.add(threading.current_thread().name), 4)
    for i in range(200):
        pool.put(i, defer=True)
    pool.flush()
    pool.stop()
    assert pool.join(10)
    pool.close()
    assert len(names) == 1


def test_worker_pool_nudge_hands_queued_work_on_before_blocking() -> None:
    # A handler about to wait for the host nudges the pool: the queued item starts without
    # waiting for the reader's stall check.
    release = threading.Event()
    queued = threading.Event()
    ran: list[str] = []
    pool: WorkerPool

    def run(item: str) -> None:
        if item == "block":
            queued.wait(10)
            pool.nudge()
            release.wait(10)
        ran.append(item)

    pool = WorkerPool(run, 2)
    pool.put("block")
    pool.put("next")
    queued.set()
    for _ in range(1000):
        if ran:
            break
        threading.Event().wait(0.005)
    assert ran == ["next"]
    release_and_stop(pool, release)
    assert ran == ["next", "block"]


def test_a_stall_is_noticed_while_input_keeps_arriving() -> None:
    # The watch runs from the last item taken: frames arriving faster than the stall timeout
    # must not keep postponing it while a request waits behind a blocked handler.
    import os

    from octet_extension._transport import LineReader

    release, ran, run = blocking_runner()

    pool = WorkerPool(run, 2)
    read_end, write_end = os.pipe()
    reader = LineReader(read_end, 100, pool.stall_timeout, pool.stalled)
    stop = threading.Event()

    def feed() -> None:
        while not stop.is_set():
            os.write(write_end, b"ping\n")
            stop.wait(0.0002)

    feeder = threading.Thread(target=feed, daemon=True)
    pool.put("block", defer=True)
    pool.put("next", defer=True)
    feeder.start()
    for _ in range(200_000):
        if ran:
            break
        assert reader.readline() == b"ping"
    stop.set()
    feeder.join(10)
    assert ran == ["next"]
    release.set()
    pool.stop()
    assert pool.join(10)
    pool.close()
    os.close(read_end)
    os.close(write_end)
