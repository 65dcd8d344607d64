"""The SDK's exception hierarchy.

``OctetError`` is the root. A handler that lets one escape gets a precise JSON-RPC error:
``ToolError`` and ``RemoteError`` travel verbatim, ``InvalidParams`` is -32602, ``Cancelled`` is
-32800; any other exception is -32603 carrying only its message.
"""

from __future__ import annotations

from ._limits import (
    CODE_INVALID_PARAMS,
    CODE_KV_CONFLICT,
    CODE_KV_SECRET_REFUSED,
    CODE_REQUEST_CANCELLED,
    CODE_SECRET_UNAVAILABLE,
)
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_RESERVED = range(-32768, -31999)
_ABSENT: Any = object()  # "no data member", distinct from an explicit JSON null


class OctetError(Exception):
    """Base class of every error this SDK raises."""


class ProtocolError(OctetError):
    """The peer broke the wire contract (bad frame, bad response shape, lost transport)."""


class UnavailableError(OctetError):
    """A service was used without its negotiated feature, manifest declaration or active parent."""


class InvalidParams(OctetError, ValueError):
    """A value failed a local wire check; a handler that lets it escape answers -32602."""

    code = CODE_INVALID_PARAMS

    def __init__(self, reason: str, path: str | None = None) -> None:
        super().__init__(f"{path}: {reason}" if path else reason)
        self.reason = reason
        self.path = path

    @property
    def data(self) -> dict[str, str]:
        out = {"reason": self.reason}
        if self.path:
            out["path"] = self.path
        return out


class SchemaViolation(InvalidParams):
    """A value failing a tool's schema: the fault contract's one fault
    (docs/conformance.md#validation-faults). ``pointer`` is inside the judged value, ``path``
    is ``base`` followed by it (``/arguments/...`` for tool arguments)."""

    def __init__(self, pointer: str, keyword: str, reason: str, base: str = "") -> None:
        where = pointer or "(root)"
        message = (f"invalid arguments: {where}: {reason}" if base == "/arguments"
                   else f"{base + pointer or '(root)'}: {reason}")
        OctetError.__init__(self, message)
        self.reason = reason
        self.path: str = base + pointer
        self.pointer = pointer
        self.keyword = keyword

    @property
    def data(self) -> dict[str, str]:
        # Sorted keys, as every SDK writes them.
        return {"keyword": self.keyword, "path": str(self.path), "pointer": self.pointer,
                "reason": self.reason}


class _CodedError(OctetError):
    def __init__(self, code: int, message: str, data: Any = _ABSENT) -> None:
        if isinstance(code, bool) or not isinstance(code, int):
            raise TypeError(f"error code must be an int, got {type(code).__name__}")
        if not isinstance(message, str):
            raise TypeError(f"error message must be a str, got {type(message).__name__}")
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message
        self.has_data = data is not _ABSENT
        self.data: Any = data if self.has_data else None

    def to_wire(self) -> dict[str, Any]:
        """The JSON-RPC error object; ``data`` only when one was given (even if null)."""
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.has_data:
            err["data"] = self.data
        return err


class RemoteError(_CodedError):
    """The host answered one of our requests with a JSON-RPC error."""


class SecretUnavailable(RemoteError):
    """secret/get failed with -32004 (missing value or broker failure)."""


class KVConflict(RemoteError):
    """A KV commit failed a precondition (-32005); nothing was applied. Re-read and retry."""

    @property
    def namespace(self) -> str | None:
        return self.data.get("namespace") if isinstance(self.data, dict) else None

    @property
    def key(self) -> str | None:
        return self.data.get("key") if isinstance(self.data, dict) else None


class KVSecretRefused(RemoteError):
    """A KV commit was refused (-32020): a write holds a secret the host handed out; nothing was
    applied. Store the secret's name and ask the broker again."""

    @property
    def path(self) -> str | None:
        return self.data.get("path") if isinstance(self.data, dict) else None


def remote_error(code: int, message: str, data: Any = _ABSENT) -> RemoteError:
    """Build the most specific RemoteError for a host error object."""
    cls: type[RemoteError] = RemoteError
    if code == CODE_SECRET_UNAVAILABLE:
        cls = SecretUnavailable
    elif code == CODE_KV_CONFLICT:
        cls = KVConflict
    elif code == CODE_KV_SECRET_REFUSED:
        cls = KVSecretRefused
    return cls(code, message, data)


def error_from_wire(err: dict[str, Any]) -> RemoteError:
    """A RemoteError from a JSON-RPC error object, keeping absent ``data`` absent."""
    return remote_error(err["code"], err["message"], err.get("data", _ABSENT))


class ToolError(_CodedError):
    """Raise from a handler to answer with exactly ``{code, message, data}``.

    Codes -32768..-32000 belong to the protocol (wire.md §1) and are refused here.
    """

    def __init__(self, code: int, message: str, data: Any = _ABSENT) -> None:
        super().__init__(code, message, data)
        if code in _RESERVED:
            raise ValueError(
                f"error code {code} is reserved for the protocol (-32768..-32000); "
                "pick a code outside that range"
            )


class Cancelled(OctetError):
    """The current request was cancelled; a handler that lets it escape answers -32800."""

    code = CODE_REQUEST_CANCELLED

    def __init__(self, message: str = "request cancelled") -> None:
        super().__init__(message)


# Deprecated spelling (one release): the schema, Go and every SDK spell the initialism KV
# (docs/glossary.md).
KvConflict = KVConflict
