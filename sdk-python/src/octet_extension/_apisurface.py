"""The SDK's service surface as JSON, for the cross-language parity test.

``python -m octet_extension._apisurface`` prints ``{"kv": {"get": ["key"], ...}, ...}``: every
public operation of every service object of an Extension with its positional parameter names
(keyword-only options and parent_request_id excluded), sorted.
"""

from __future__ import annotations

import inspect
import json
import sys

from ._generated.services import SERVICES
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def positional(fn: Any) -> list[str]:
    """The names of a bound operation's positional parameters, in order."""
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in inspect.signature(fn).parameters.values() if p.kind in kinds]


def surface_of(ext: Any) -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    for service in SERVICES:
        obj = getattr(ext, service)
        ops: dict[str, list[str]] = {}
        for name in dir(obj):
            if name.startswith("_"):
                continue
            fn = getattr(obj, name)
            if callable(fn):
                ops[name] = positional(fn)
        out[service] = dict(sorted(ops.items()))
    return out


def surface() -> dict[str, dict[str, list[str]]]:
    from ._extension import Extension

    return surface_of(Extension())


def main() -> int:
    json.dump(surface(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
