"""Micro-benchmark: validating tool arguments against a typical tool schema, per call.

    .venv/bin/python sdk-python/bench/validate.py [--before REV]

Compares, on the same schema and instances:
  - before: the hand-written subset ``_schema.py`` had at REV (read with ``git show``; default
    the commit before the complete validator), loaded beside the current package;
  - after:  the SDK's check now (``_schema.compile_schema``: the complete 2020-12 validator,
    boolean fast path, the fault contract's fault on failure);
  - jsonschema (PyPI, a dev-only dependency): ``Draft202012Validator.is_valid`` and, for the
    invalid instance, ``best_match(iter_errors(...))``.
Each figure is the best of 7 repetitions of a timeit loop, in microseconds per call.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
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


def _per_call(fn: Any) -> float:
    timer = timeit.Timer(fn)
    loops, _ = timer.autorange()
    return min(timer.repeat(7, loops)) / loops * 1e6


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
        ("before (subset), valid", _per_call(lambda: old(VALID, "/arguments"))),
        ("after, valid", _per_call(lambda: new(VALID, "/arguments"))),
        ("before (subset), invalid", _per_call(_raising(old, INVALID))),
        ("after, invalid (fault contract)", _per_call(_raising(new, INVALID))),
    ]
    try:
        import jsonschema
    except ImportError:
        print("jsonschema not installed (pip install -e 'sdk-python[dev]'): skipped")
    else:
        ref = jsonschema.Draft202012Validator(SCHEMA)
        rows += [
            (f"jsonschema {_version('jsonschema')} is_valid, valid",
             _per_call(lambda: ref.is_valid(VALID))),
            ("jsonschema best_match(iter_errors), invalid",
             _per_call(lambda: jsonschema.exceptions.best_match(ref.iter_errors(INVALID)))),
        ]
        compile_ref = _per_call(lambda: jsonschema.Draft202012Validator(SCHEMA).is_valid(VALID))
        rows += [("jsonschema, construct + first is_valid", compile_ref)]
    rows += [("before (subset), compile once", _per_call(lambda: before.compile_schema(SCHEMA))),
             ("after, compile once", _per_call(lambda: compile_schema(SCHEMA)))]
    width = max(len(name) for name, _ in rows)
    print(f"Python {sys.version.split()[0]}, per call (best of 7)")
    for name, micros in rows:
        print(f"  {name:<{width}}  {micros:8.2f} µs")


if __name__ == "__main__":
    main()
