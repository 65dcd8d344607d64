"""The tool faults whose error object the registry fixes.

``schema/errors.schema.json`` holds the message templates (generated into
``_generated._models``) and ``schema/error-vectors/`` the exact objects every SDK answers, so
the same fault reads the same in Go, Python and TypeScript.
"""

from __future__ import annotations

from . import _limits as L
from ._errors import _CodedError
from ._generated._models import (
    MESSAGE_HANDLER_EXCEPTION,
    MESSAGE_OUTPUT_SCHEMA_FAULT,
    MESSAGE_UNKNOWN_TOOL,
)


class WireFault(_CodedError):
    """An error the SDK itself answers with a registry code, sent verbatim."""


def unknown_tool(name: str) -> WireFault:
    """-32602: tool/call named a tool the catalog (or the named revision) does not hold."""
    message = MESSAGE_UNKNOWN_TOOL.format(tool=name)
    return WireFault(L.CODE_INVALID_PARAMS, message, {"path": "/name", "reason": message})


def handler_exception(tool: str, exc: BaseException) -> WireFault:
    """-32603 keeping the exception's class name and message (``KeyError: 'customer_id'``)."""
    exception = type(exc).__name__
    message = MESSAGE_HANDLER_EXCEPTION.format(tool=tool, exception=exception, message=str(exc))
    return WireFault(L.CODE_INTERNAL_ERROR, message, {"tool": tool, "exception": exception})


def output_schema_fault(tool: str, pointer: str, keyword: str, reason: str) -> WireFault:
    """-32603: structured_content breaks the tool's own output_schema (``pointer`` is within
    structured_content, "" its root): the extension's fault, not the caller's."""
    at = "/structured_content" + pointer
    message = MESSAGE_OUTPUT_SCHEMA_FAULT.format(tool=tool, pointer=at, reason=reason)
    data = {"tool": tool, "pointer": at, "keyword": keyword}
    return WireFault(L.CODE_INTERNAL_ERROR, message, data)
