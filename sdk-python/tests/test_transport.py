"""The writer and the work queue on their own: whole frames, order, bounds, broken pipes."""

from __future__ import annotations

import json
import os
import threading

import pytest

from octet_extension._transport import LineReader, WorkQueue, Writer


def drain(fd: int, into: bytearray) -> threading.Thread:
    def run() -> None:
        while chunk := os.read(fd, 1 << 16):
            into.extend(chunk)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_concurrent_frames_stay_whole_and_ordered() -> None:
    read_end, write_end = os.pipe()
    received = bytearray()
    reader = drain(read_end, received)
    writer = Writer(write_end)

    def sender(tag: int) -> None:
        for i in range(40):
            size = 200_000 if i % 10 == 0 else 10  # big frames cross PIPE_BUF and the pipe
            writer.send(json.dumps({"t": tag, "i": i, "pad": "x" * size}).encode() + b"\n")

    threads = [threading.Thread(target=sender, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    writer.close()
    os.close(write_end)
    reader.join(30)
    os.close(read_end)
    frames = [json.loads(line) for line in received.splitlines()]
    assert len(frames) == 160
    for tag in range(4):
        assert [f["i"] for f in frames if f["t"] == tag] == list(range(40))


def test_broken_output_never_blocks_senders() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    writer = Writer(write_end)
    for _ in range(100):  # far beyond any pipe buffer
        writer.send(b"x" * 100_000 + b"\n")
    writer.close()
    assert writer.broken
    os.close(write_end)


def test_work_queue_is_fifo_across_threads() -> None:
    work = WorkQueue()
    got: list[int] = []
    lock = threading.Lock()

    def worker() -> None:
        while (item := work.get()) is not None:
            with lock:
                got.append(item)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    for i in range(300):
        work.put(i)
    for _ in threads:
        work.put(None)
    for t in threads:
        t.join(10)
    work.close()
    assert sorted(got) == list(range(300))


def test_line_reader_bounds() -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"12345\n" + b"y" * 20 + b"\nlast")
    os.close(write_end)
    reader = LineReader(read_end, 10)
    assert reader.readline() == b"12345"
    with pytest.raises(OverflowError):
        reader.readline()
    os.close(read_end)


def test_writer_buffers_up_to_its_bound_before_blocking() -> None:
    # The bound is the protocol pipe, grown to 1 MiB: a host that is slow to read must not
    # stall a sender (the reader answers overloaded through the same writer) much earlier.
    read_end, write_end = os.pipe()
    writer = Writer(write_end)
    done = threading.Event()

    def fill() -> None:
        for _ in range(8):
            writer.send(b"x" * (100 << 10) + b"\n")  # 800 KiB in all
        done.set()

    threading.Thread(target=fill, daemon=True).start()
    assert done.wait(10), "a sender blocked with less than 1 MiB waiting"
    received = bytearray()
    reader = drain(read_end, received)
    writer.close()
    os.close(write_end)
    reader.join(10)
    os.close(read_end)
    assert received.count(b"\n") == 8
