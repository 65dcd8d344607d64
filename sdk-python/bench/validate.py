"""Micro-benchmark: validating tool arguments against a typical tool schema, per call.

    .venv/bin/python sdk-python/bench/validate.py [--before REV]

Compares, on the same schema and instances:
  - before: the hand-written subset ``_schema.py`` had at REV (read with ``git show``; default
    the commit before the complete validator), loaded beside the current package;
  - after:  the SDK's check now (``_schema.compile_schema``: the complete 2020-12 validator,
    boolean fast path, the fault contract's fault on failure);
  - jsonschema (PyPI, a dev-only dependency): ``Draft202012Validator.is_valid`` and, for the
    invalid instance, ``best_match(iter_errors(...))``.
The rows are measured interleaved, round after round (the development machine is shared, so
load drifts during a run); each figure is the best and the median over the rounds of the best
of 3 timeit loops, in microseconds per call.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import statistics
import subprocess
import sys
import timeit
from importlib.metadata import version as _version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "sdk-python" / "src"))

from octet_extension._errors import InvalidParams  # noqa: E402
from octet_extension._schema import compile_schema  # noqa: E402

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 200},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9-]+$"},
                 "maxItems": 10},
        "mode": {"enum": ["fast", "exact"]},
        "since": {"type": "string"},
    },
    "required": ["query"],
    "additionalProperties": False,
}
VALID = {"query": "weather in Paris", "limit": 10, "tags": ["news", "eu-west"], "mode": "fast"}
INVALID = {"query": "weather in Paris", "limit": 0, "tags": ["news", "EU"], "mode": "fast"}


def _old_module(rev: str) -> Any:
    source = subprocess.run(["git", "-C", str(ROOT), "show",
                             f"{rev}:sdk-python/src/octet_extension/_schema.py"],
                            capture_output=True, text=True, check=True).stdout
    spec = importlib.util.spec_from_loader("octet_extension._schema_before", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "octet_extension"
    exec(compile(source, f"{rev}:_schema.py", "exec"), module.__dict__)
    return module


ROUNDS = 7


def _measure(rows: list[tuple[str, Any]]) -> list[tuple[str, float, float]]:
    timers = []
    for name, fn in rows:
        timer = timeit.Timer(fn)
        loops, _ = timer.autorange()
        timers.append((name, timer, loops))
    samples: dict[str, list[float]] = {name: [] for name, _ in rows}
    for _ in range(ROUNDS):
        for name, timer, loops in timers:
            samples[name].append(min(timer.repeat(3, loops)) / loops * 1e6)
    return [(name, min(samples[name]), statistics.median(samples[name])) for name, _ in rows]


def _raising(check: Any, value: Any) -> Any:
    def run() -> None:
        with contextlib.suppress(InvalidParams):
            check(value, "/arguments")
    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default="5bb2d46",
                        help="the commit whose _schema.py is 'before' (default: the subset)")
    args = parser.parse_args()
    before = _old_module(args.before)
    old = before.compile_schema(SCHEMA)
    new = compile_schema(SCHEMA)
    assert old is not None and new is not None
    rows = [
        ("before (subset), valid", lambda: old(VALID, "/arguments")),
        ("after, valid", lambda: new(VALID, "/arguments")),
        ("before (subset), invalid", _raising(old, INVALID)),
        ("after, invalid (fault contract)", _raising(new, INVALID)),
    ]
    try:
        import jsonschema
    except ImportError:
        print("jsonschema not installed (pip install -e 'sdk-python[dev]'): skipped")
    else:
        ref = jsonschema.Draft202012Validator(SCHEMA)
        rows += [
            (f"jsonschema {_version('jsonschema')} is_valid, valid",
             lambda: ref.is_valid(VALID)),
            ("jsonschema best_match(iter_errors), invalid",
             lambda: jsonschema.exceptions.best_match(ref.iter_errors(INVALID))),
        ]
        rows += [("jsonschema, construct + first is_valid",
                  lambda: jsonschema.Draft202012Validator(SCHEMA).is_valid(VALID))]
    rows += [("before (subset), compile once", lambda: before.compile_schema(SCHEMA)),
             ("after, compile once", lambda: compile_schema(SCHEMA))]
    width = max(len(name) for name, _ in rows)
    print(f"Python {sys.version.split()[0]}, µs per call, best / median of {ROUNDS} rounds")
    for name, best, median in _measure(rows):
        print(f"  {name:<{width}}  {best:8.2f}  {median:8.2f}")


if __name__ == "__main__":
    main()
