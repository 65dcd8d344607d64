"""octet_extension: write octet agent-host extensions in Python.

Zero runtime dependencies. Private modules each hold one concern and are re-exported here.
"""

from __future__ import annotations

import gc as _gc

# The cyclic garbage collector is paused while the SDK's modules load: importing them creates
# thousands of long-lived objects (classes, functions, constants) and no garbage, yet they
# trigger a dozen collections that would traverse them, about 4 ms of every extension's start
# (docs/benchmarks.md, scale). Restored below even when an import fails.
_gc_was_enabled = _gc.isenabled()
_gc.disable()
try:
    from ._cancel import CancellationToken, current_cancellation
    from ._content import (
        audio_content,
        image_content,
        persistence_metadata,
        post_mutation_rescan,
        text_content,
        tool_result,
    )
    from ._errors import (
        Cancelled,
        InvalidParams,
        KVConflict,
        KvConflict,
        KVSecretRefused,
        OctetError,
        ProtocolError,
        RemoteError,
        SecretUnavailable,
        ToolError,
        UnavailableError,
    )
    from ._extension import Extension
    from ._generated.dispatch import FeatureName, Method
    from ._log import Logger, log
    from ._migrate import KV_VERSION_KEY, MigrationError, MigrationTx
    from ._settings import ConfigureInfo, SettingsRefused
    from ._typecheck import TYPE_CHECKING
finally:
    if _gc_was_enabled:
        _gc.enable()

if TYPE_CHECKING:
    from typing import Any

    from ._kv import KV, KVTransaction

__all__ = [
    "KV",
    "KV_VERSION_KEY",
    "CancellationToken",
    "Cancelled",
    "ConfigureInfo",
    "Extension",
    "FeatureName",
    "InvalidParams",
    "KVConflict",
    "KVSecretRefused",
    "KVTransaction",
    "KvConflict",
    "Logger",
    "Method",
    "MigrationError",
    "MigrationTx",
    "OctetError",
    "ProtocolError",
    "RemoteError",
    "SecretUnavailable",
    "SettingsRefused",
    "ToolError",
    "UnavailableError",
    "audio_content",
    "current_cancellation",
    "image_content",
    "log",
    "persistence_metadata",
    "post_mutation_rescan",
    "text_content",
    "tool_result",
]
__version__ = "0.8.0"

_LAZY = frozenset({"KV", "KVTransaction"})


def __getattr__(name: str) -> Any:
    # The KV types load on first use (PEP 562), as ext.kv does: extensions without KV do
    # not pay for the module at start-up.
    if name in _LAZY:
        from . import _kv

        return getattr(_kv, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
