"""Structured diagnostics: one JSON object per line on stderr (wire.md §10)."""

from __future__ import annotations

import json
import os
import sys
import threading
import time

from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_lock = threading.Lock()


def _stderr_write(line: str) -> None:
    # Write to fd 2 directly: sys.stderr may be replaced by the host application or tests.
    data = line.encode("utf-8", "replace")
    with _lock:
        try:  # noqa: SIM105 - contextlib (18 classes) would cost every start to load
            os.write(2, data)
        except OSError:
            pass


class Logger:
    """``ext.log.info("msg", key=value)`` writes ``{"ts", "level", "msg", ...}`` to stderr."""

    def __init__(self, **bound: Any) -> None:
        self._bound = bound

    def bind(self, **fields: Any) -> Logger:
        return Logger(**{**self._bound, **fields})

    def log(self, level: str, msg: str, **fields: Any) -> None:
        # time, not datetime: datetime and traceback cost ~2 ms of every extension's start.
        now = time.time()
        record = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S.", time.gmtime(now))
            + f"{int(now * 1000) % 1000:03d}Z",
            "level": level,
            "msg": msg,
            **self._bound,
            **fields,
        }
        _stderr_write(json.dumps(record, default=repr, separators=(",", ":")) + "\n")

    def debug(self, msg: str, **fields: Any) -> None:
        if os.environ.get("OCTET_LOG_LEVEL", "info").lower() == "debug":
            self.log("debug", msg, **fields)

    def info(self, msg: str, **fields: Any) -> None:
        self.log("info", msg, **fields)

    def warning(self, msg: str, **fields: Any) -> None:
        self.log("warning", msg, **fields)

    warn = warning

    def error(self, msg: str, **fields: Any) -> None:
        self.log("error", msg, **fields)

    def exception(self, msg: str, **fields: Any) -> None:
        """Log an error with the active exception's traceback (stderr only, never the wire)."""
        exc = sys.exc_info()[1]
        if exc is not None:
            import traceback  # only when a handler fails

            fields["traceback"] = "".join(traceback.format_exception(exc))
        self.log("error", msg, **fields)


log = Logger()
