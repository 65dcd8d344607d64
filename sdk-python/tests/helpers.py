"""Shared test helpers: example paths, manifests, and a subprocess host for the examples."""

from __future__ import annotations

import importlib.util
import itertools
import os
import tomllib
from pathlib import Path
from typing import Any

from octet_extension import Extension
from octet_extension.testing import LoopbackHost, ProcessHost

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "python"


def manifest(example: str) -> dict[str, Any]:
    with open(EXAMPLES / example / "extension.toml", "rb") as f:
        return tomllib.load(f)


def example_host(example: str, **options: Any) -> ProcessHost:
    """Start an example exactly as a host would: its `run` launcher, the workspace as cwd."""
    m = manifest(example)
    options.setdefault("api_version", m["api_version"])
    return ProcessHost([str(EXAMPLES / example / "run")], cwd=options.pop("cwd", REPO),
                       manifest=m, **options)


# The two transports every fixture behaviour test runs over, as in the Go and TypeScript
# SDKs: the extension served in this process over pipes (LoopbackHost), and the same
# extension as a real child process started by its launcher (ProcessHost).
TRANSPORTS = ("loopback", "process")
_loads = itertools.count()


def load_example_extension(example: str) -> Extension:
    """A fresh ``ext`` of an example's extension.py, imported under a name of its own (its
    ``ext.run()`` is guarded by ``__main__``), so each loopback host gets a new Extension."""
    path = EXAMPLES / example / "extension.py"
    spec = importlib.util.spec_from_file_location(f"example_{next(_loads)}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ext: Extension = module.ext
    return ext


def example_host_over(transport: str, example: str, **options: Any) -> LoopbackHost | ProcessHost:
    """The example over ``transport``: in this process, or started as a host would start it."""
    if transport == "process":
        return example_host(example, **options)
    assert transport == "loopback", transport
    m = manifest(example)
    options.setdefault("api_version", m["api_version"])
    env = {}
    if options.get("scratch_dir") is not None:
        env["OCTET_EXTENSION_SCRATCH"] = str(options["scratch_dir"])
    return _LoopbackWithEnv(load_example_extension(example), env, manifest=m, **options)


class _LoopbackWithEnv(LoopbackHost):
    """A loopback host that gives the extension, for as long as it serves, the environment
    ProcessHost gives a child (its handlers read it per call), then restores this process's."""

    def __init__(self, ext: Extension, env: dict[str, str], **options: Any) -> None:
        super().__init__(ext, **options)
        self._env = env
        self._saved: dict[str, str | None] = {}

    def __enter__(self) -> _LoopbackWithEnv:
        for key, value in self._env.items():
            self._saved[key] = os.environ.get(key)
            os.environ[key] = value
        super().__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            super().__exit__(*exc)
        finally:
            for key, value in self._saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
