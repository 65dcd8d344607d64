"""The API 0.4 key-value store: versioned values with precondition batches."""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from dataclasses import dataclass, field

from . import _limits as L
from ._checks import encoded_size, require_int, require_str
from ._errors import InvalidParams, ProtocolError
from ._generated.dispatch import (
    FEATURE_KV,
    METHOD_KV_COMMIT,
    METHOD_KV_GET,
    METHOD_KV_LIST,
)
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from ._base import Base


@dataclass(frozen=True, slots=True)
class KVEntry:
    """One stored value and the version (digest) a later write can be conditioned on."""

    namespace: str
    key: str
    value: Any
    version: str


@dataclass(frozen=True, slots=True)
class KVPage:
    entries: list[KVEntry]
    next_cursor: str | None


def _key(key: Any) -> str:
    return require_str(key, "key", max_bytes=L.KV_KEY_MAX_BYTES, non_blank=True)


def _value(value: Any) -> Any:
    try:
        size = encoded_size(value)
    except (TypeError, ValueError) as exc:
        raise InvalidParams(f"value is not JSON: {exc}", "value") from None
    if size > L.KV_VALUE_MAX_BYTES:
        raise InvalidParams(f"value is {size} bytes, over the {L.KV_VALUE_MAX_BYTES}-byte limit",
                            "value")
    return value


class KV:
    """``ext.kv``: namespaced, versioned storage the host keeps (needs the ``kv`` feature).

    The default namespace is the extension's own name; ``namespace="<name>.suffix"`` picks a
    sub-namespace.
    """

    def __init__(self, ext: Base) -> None:
        self._ext = ext

    def _call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        session = self._ext._require(FEATURE_KV, method)
        migrations = getattr(self._ext, "_migrations", None)
        if migrations is not None:  # the declared KV migrations run before the first use
            assert session.negotiated is not None
            migrations.ensure(session, session.negotiated.name, session.negotiated.manifest)
        return session.request(method, params)

    def _ns(self, namespace: str | None) -> str:
        if namespace is None:
            _, negotiated = self._ext._negotiated(FEATURE_KV)
            return negotiated.name
        return require_str(namespace, "namespace", non_blank=True)

    def get(self, key: str, *, namespace: str | None = None) -> KVEntry | None:
        """The entry under ``key``, or None when absent."""
        ns = self._ns(namespace)
        result = self._call(METHOD_KV_GET, {"namespace": ns, "key": _key(key)})
        if not result["found"]:
            return None
        if not isinstance(result.get("version"), str):
            raise ProtocolError("kv.get: a found entry needs a version")
        return KVEntry(ns, key, result.get("value"), result["version"])

    def list(self, prefix: str = "", *, namespace: str | None = None, cursor: str | None = None,
             limit: int = 100) -> KVPage:
        """One page of entries whose key starts with ``prefix``."""
        ns = self._ns(namespace)
        params: dict[str, Any] = {"namespace": ns, "prefix": require_str(prefix, "prefix"),
                                  "limit": require_int(limit, "limit", 1, L.KV_LIST_MAX)}
        if cursor is not None:
            params["cursor"] = require_str(cursor, "cursor")
        result = self._call(METHOD_KV_LIST, params)
        entries: builtins.list[KVEntry] = []
        for item in result["entries"]:
            entries.append(KVEntry(ns, item["key"], item.get("value"), item["version"]))
        next_cursor = result.get("next_cursor")
        return KVPage(entries, next_cursor if isinstance(next_cursor, str) else None)

    def scan(self, prefix: str = "", *, namespace: str | None = None,
             page_size: int = 100) -> Iterator[KVEntry]:
        """Every entry under ``prefix``, following cursors page by page."""
        cursor = None
        while True:
            page = self.list(prefix, namespace=namespace, cursor=cursor, limit=page_size)
            yield from page.entries
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def commit(self, writes: builtins.list[dict[str, Any]],
               preconditions: builtins.list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Apply ``writes`` atomically if every precondition holds.

        Raises KVConflict (-32005) when one does not; nothing is applied then. Returns the
        host's ``{"versions": [...]}``, one per write.
        """
        if not isinstance(writes, list) or not 1 <= len(writes) <= L.KV_MAX_BATCH:
            raise InvalidParams(f"send 1..{L.KV_MAX_BATCH} writes", "writes")
        preconditions = list(preconditions or [])
        if len(preconditions) > L.KV_MAX_BATCH:
            raise InvalidParams(f"at most {L.KV_MAX_BATCH} preconditions", "preconditions")
        for index, write in enumerate(writes):
            if not isinstance(write, dict):
                raise InvalidParams("must be an object", f"writes[{index}]")
            if "key" in write:
                _key(write["key"])
            if write.get("op") == "put":
                _value(write.get("value"))
        return self._call(METHOD_KV_COMMIT, {"preconditions": preconditions, "writes": writes})

    def transaction(self, *, namespace: str | None = None) -> KVTransaction:
        """``with ext.kv.transaction() as tx: tx.expect(...); tx.put(...)`` commits on exit."""
        return KVTransaction(self, self._ns(namespace))

    def put(self, key: str, value: Any, *, namespace: str | None = None,
            expect_version: str | None = None, expect_absent: bool = False) -> str | None:
        """Write one value, optionally conditioned; returns its new version."""
        with self.transaction(namespace=namespace) as tx:
            if expect_absent:
                tx.expect_absent(key)
            elif expect_version is not None:
                tx.expect(key, expect_version)
            tx.put(key, value)
        return tx.versions[0] if tx.versions else None

    def delete(self, key: str, *, namespace: str | None = None) -> None:
        with self.transaction(namespace=namespace) as tx:
            tx.delete(key)


@dataclass
class KVTransaction:
    _kv: KV
    namespace: str
    preconditions: list[dict[str, Any]] = field(default_factory=list)
    writes: list[dict[str, Any]] = field(default_factory=list)
    versions: list[str | None] = field(default_factory=list)

    def expect(self, key: str, version: str) -> None:
        self.preconditions.append({"namespace": self.namespace, "key": _key(key),
                                   "version": require_str(version, "version")})

    def expect_absent(self, key: str) -> None:
        self.preconditions.append({"namespace": self.namespace, "key": _key(key),
                                   "absent": True})

    def put(self, key: str, value: Any) -> None:
        self.writes.append({"op": "put", "namespace": self.namespace, "key": _key(key),
                            "value": _value(value)})

    def delete(self, key: str) -> None:
        self.writes.append({"op": "delete", "namespace": self.namespace, "key": _key(key)})

    def __enter__(self) -> KVTransaction:
        return self

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        if exc_type is not None or not self.writes:
            return
        result = self._kv.commit(self.writes, self.preconditions)
        self.versions = [v.get("version") if isinstance(v, dict) else None
                         for v in result["versions"]]


# Deprecated spellings (one release): the schema, Go and every SDK spell the initialism KV
# (docs/glossary.md).
Kv = KV
KvEntry = KVEntry
KvPage = KVPage
KvTransaction = KVTransaction
