"""Shared test helpers: example paths, manifests, and a subprocess host for the examples."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from octet_extension.testing import ProcessHost

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
