"""``ext.kv``: the API 0.4 key-value store, versioned values with precondition batches.

The generated operations (get, list, commit) send through the session's one send, which
checks the ``kv`` feature and validates with the schema (key and value bounds, the batch of
1..KV_MAX_BATCH writes); this adds the default namespace, the declared migrations before the
first use, and the conveniences of schema/sdk-surface.json (scan, put, delete, transaction).
"""

from __future__ import annotations

from ._generated import senders
from ._generated.services import KVOperations
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from ._generated._models import KVEntry
    from ._migrate import Migrations
    from ._services import Link


class KV(KVOperations):
    """``ext.kv``: namespaced, versioned storage the host keeps (needs the ``kv`` feature).

    The namespace defaults to the extension's own name; ``namespace="<name>.suffix"`` picks a
    sub-namespace. ``get`` answers ``{"found", "value", "version"}``.
    """

    def __init__(self, link: Link, migrations: Migrations | None = None) -> None:
        super().__init__(link.send)
        self._link = link
        self._migrations = migrations

    def _own(self) -> str:
        negotiated = self._link.live("kv.transaction()").negotiated
        assert negotiated is not None
        return negotiated.name

    def _send(self, send: senders.Send, params: dict[str, Any]) -> Any:
        session = self._link.live(f"kv.{send.operation}()")
        negotiated = session.negotiated
        assert negotiated is not None
        own = negotiated.name
        if send is not senders.KV_COMMIT:
            params.setdefault("namespace", own)
        for item in (*params.get("writes", ()), *params.get("preconditions", ())):
            if isinstance(item, dict):
                item.setdefault("namespace", own)
        if self._migrations is not None and send.feature in negotiated.features:
            # The declared KV migrations run before the first use.
            self._migrations.ensure(session, own, negotiated.manifest)
        return super()._send(send, params)

    def scan(self, prefix: str, *, namespace: str | None = None,
             limit: int = 100) -> Iterator[KVEntry]:
        """Every entry under ``prefix``, following cursors page by page."""
        cursor = None
        while True:
            page = self.list(prefix, namespace=namespace, cursor=cursor, limit=limit)
            yield from page["entries"]
            cursor = page.get("next_cursor")
            if cursor is None:
                return

    def transaction(self, *, namespace: str | None = None) -> KVTransaction:
        """``with ext.kv.transaction() as tx: tx.expect(...); tx.put(...)`` commits on exit."""
        return KVTransaction(self, self._own() if namespace is None else namespace)

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
        """Delete one key (absent keys are harmless)."""
        with self.transaction(namespace=namespace) as tx:
            tx.delete(key)


class KVTransaction:
    """Preconditions and writes of one namespace, sent as one commit when the block ends
    without an exception (nothing is sent for a block without writes)."""

    def __init__(self, kv: KV, namespace: str) -> None:
        self._store = kv
        self.namespace = namespace
        self.preconditions: list[dict[str, Any]] = []
        self.writes: list[dict[str, Any]] = []
        self.versions: list[str | None] = []

    def expect(self, key: str, version: str) -> None:
        self.preconditions.append({"namespace": self.namespace, "key": key, "version": version})

    def expect_absent(self, key: str) -> None:
        self.preconditions.append({"namespace": self.namespace, "key": key, "absent": True})

    def put(self, key: str, value: Any) -> None:
        self.writes.append({"op": "put", "namespace": self.namespace, "key": key,
                            "value": value})

    def delete(self, key: str) -> None:
        self.writes.append({"op": "delete", "namespace": self.namespace, "key": key})

    def __enter__(self) -> KVTransaction:
        return self

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        if exc_type is not None or not self.writes:
            return
        result = self._store.commit(self.writes,  # type: ignore[arg-type]
                                 preconditions=self.preconditions)  # type: ignore[arg-type]
        self.versions = [v.get("version") for v in result["versions"]]
