"""The writer and the work queue on their own: whole frames, order, bounds, broken pipes."""

from __future__ import annotations

import json
import os
import threading

import pytest

from octet_extension._transport import LineReader, PartialFrameError, Writer


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


def test_line_reader_joins_lines_across_reads_and_keeps_the_exact_limit() -> None:
    read_end, write_end = os.pipe()
    flushed: list[int] = []

    def before_block() -> None:
        flushed.append(1)

    reader = LineReader(read_end, 200_000, before_block)
    exact = b"b" + b"z" * 199_999  # exactly the limit, longer than one 64 KiB read

    def feed() -> None:
        os.write(write_end, b"a\n" + exact[:1])
        for offset in range(1, len(exact), 50_000):
            os.write(write_end, exact[offset:offset + 50_000])
        os.write(write_end, b"\n" + b"y" * 200_001 + b"\n")
        os.close(write_end)

    feeder = threading.Thread(target=feed)
    feeder.start()
    assert reader.readline() == b"a"
    assert reader.readline() == exact
    with pytest.raises(OverflowError) as excinfo:
        reader.readline()
    assert excinfo.value.args[0] == b"y" * 64  # the excerpt names the bad line's start
    feeder.join(10)
    os.close(read_end)
    # The deferred wake-ups go out only before read(2): never while a line is buffered.
    assert len(flushed) >= 3


def test_line_reader_queues_a_whole_read_before_blocking() -> None:
    read_end, write_end = os.pipe()
    blocks: list[int] = []
    os.write(write_end, b"a\nb\nc\n")
    os.close(write_end)

    def before_block() -> None:
        blocks.append(1)

    reader = LineReader(read_end, 10, before_block)
    assert [reader.readline() for _ in range(3)] == [b"a", b"b", b"c"]
    assert len(blocks) == 1  # one read(2) served all three lines
    assert reader.readline() is None
    os.close(read_end)


def test_line_reader_reports_timed_waits_without_input() -> None:
    read_end, write_end = os.pipe()
    timeouts: list[int] = []

    def before_block() -> float | None:
        return 0.001 if len(timeouts) < 3 else None

    def on_timeout() -> None:
        timeouts.append(1)
        if len(timeouts) == 3:
            os.write(write_end, b"late\n")

    reader = LineReader(read_end, 10, before_block, on_timeout)
    assert reader.readline() == b"late"
    assert len(timeouts) == 3
    os.close(write_end)
    os.close(read_end)


def test_line_reader_refuses_a_final_line_without_newline() -> None:
    # The host died mid-write: the bytes after the last newline are not a frame.
    read_end, write_end = os.pipe()
    os.write(write_end, b"one\nlast")
    os.close(write_end)
    reader = LineReader(read_end, 10)
    assert reader.readline() == b"one"
    with pytest.raises(PartialFrameError) as info:
        reader.readline()
    assert info.value.args[0] == b"last"
    os.close(read_end)
