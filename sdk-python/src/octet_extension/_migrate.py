"""KV migrations: author-declared steps from version N to N+1, run before the first KV call.

The stored version is the integer under ``octet:kv_version`` in the extension's own
namespace (absent is version 1); the manifest's ``[state] kv_version`` is the declared one.
Each step's writes and the version bump go in one KV commit pinned on the stored
version, so two generations racing cannot both apply a step. Messages match the Go and
TypeScript SDKs.
"""

from __future__ import annotations

import json
import threading

from . import _limits as L
from ._errors import KVConflict, RemoteError
from ._generated import senders
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ._session import Session

KV_VERSION_KEY = "octet:kv_version"

# Each kv_conflict on the version means another generation advanced it; a few suffice.
_MAX_CONFLICTS = 16


class MigrationError(Exception):
    """The KV migration failed; the old data and version stay in force and the next KV call
    tries again. ``kind`` is ``kv_migration_failed`` or ``kv_migration_missing``.

    Not an OctetError on purpose: escaping a handler it is answered as any exception,
    -32603 ``tool "<name>" failed: MigrationError: <message>``, as Go and TypeScript answer."""

    def __init__(self, kind: str, from_version: int, to_version: int, stored: int,
                 declared: int, reason: str = "") -> None:
        if kind == "kv_migration_missing":
            message = (f"kv_migration_missing: no kv migration from version {from_version} to "
                       f"{to_version} is registered (stored kv_version {stored}, "
                       f"declared {declared})")
        else:
            message = (f"kv_migration_failed: kv migration from version {from_version} to "
                       f"{to_version} failed: {reason}")
        super().__init__(message)
        self.kind = kind
        self.from_version = from_version
        self.to_version = to_version
        self.stored = stored
        self.declared = declared
        self.reason = reason


class MigrationTx:
    """One step's view of KV: reads see the committed data (not this step's staged writes);
    ``put``/``delete`` are staged and committed with the version bump."""

    def __init__(self, session: Session, namespace: str) -> None:
        self._session = session
        self.namespace = namespace
        self.writes: list[dict[str, Any]] = []

    def _ns(self, namespace: str | None) -> str:
        return self.namespace if namespace is None else namespace

    def get(self, key: str, *, namespace: str | None = None) -> Any:
        """The committed value under ``key``, or None when absent."""
        result = self._session.send(senders.KV_GET, {"namespace": self._ns(namespace),
                                                     "key": key})
        return result.get("value") if result["found"] else None

    def list(self, prefix: str = "", *, namespace: str | None = None,
             cursor: str | None = None) -> dict[str, Any]:
        """One page of the host's ``kv.list`` answer (``entries``, ``next_cursor``)."""
        params: dict[str, Any] = {"namespace": self._ns(namespace), "prefix": prefix}
        if cursor is not None:
            params["cursor"] = cursor
        page: dict[str, Any] = self._session.send(senders.KV_LIST, params)
        return page

    def put(self, key: str, value: Any, *, namespace: str | None = None) -> None:
        if key == KV_VERSION_KEY:
            raise ValueError(f"a migration does not write {KV_VERSION_KEY}; the SDK does")
        self.writes.append({"op": "put", "namespace": self._ns(namespace), "key": key,
                            "value": value})

    def delete(self, key: str, *, namespace: str | None = None) -> None:
        self.writes.append({"op": "delete", "namespace": self._ns(namespace), "key": key})


class Migrations:
    """The registered steps and the once-per-process run guard."""

    def __init__(self) -> None:
        self.steps: dict[int, Callable[[MigrationTx], None]] = {}
        self._lock = threading.Lock()
        self._done = False

    def register(self, from_version: int, fn: Callable[[MigrationTx], None]) -> None:
        if isinstance(from_version, bool) or not isinstance(from_version, int) or \
                from_version < 1:
            raise ValueError(f"migration(from_version={from_version!r}): steps start at "
                             "version 1 (data stored without a version is version 1)")
        if from_version in self.steps:
            raise ValueError(f"migration(from_version={from_version}) is registered twice")
        self.steps[from_version] = fn

    def ensure(self, session: Session, namespace: str, manifest: dict[str, Any]) -> None:
        """Run the missing steps once (before the first KV call); raise MigrationError."""
        if self._done:
            return
        with self._lock:
            if self._done:
                return
            _run(self.steps, session, namespace, _declared(manifest))
            self._done = True


def _reason(exc: BaseException) -> str:
    """A failure as the three SDKs word it: a host error as "host error <code>: <message>"."""
    if isinstance(exc, RemoteError):
        return f"host error {exc.code}: {exc.message}"
    return str(exc)


def _declared(manifest: dict[str, Any]) -> int:
    state = manifest.get("state")
    version = state.get("kv_version", 0) if isinstance(state, dict) else 0
    return version if isinstance(version, int) else 0


def _stored(session: Session, namespace: str) -> tuple[int, dict[str, Any]]:
    result = session.send(senders.KV_GET, {"namespace": namespace, "key": KV_VERSION_KEY})
    if not result["found"]:
        return 1, {"namespace": namespace, "key": KV_VERSION_KEY, "absent": True}
    value = result.get("value")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        shown = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        raise ValueError(f"the stored {KV_VERSION_KEY} is {shown}, not a non-negative integer")
    return value, {"namespace": namespace, "key": KV_VERSION_KEY, "version": result["version"]}


def _run(steps: dict[int, Callable[[MigrationTx], None]], session: Session, namespace: str,
         declared: int) -> None:
    if declared <= 1:
        return  # data stored without a version is version 1: nothing to read or run
    conflicts = 0
    while True:
        try:
            stored, pin = _stored(session, namespace)
        except Exception as exc:  # classified below
            raise MigrationError("kv_migration_failed", 0, declared, 0, declared,
                                 _reason(exc)) from exc
        if stored >= declared:
            return  # up to date (a newer stored version is the host's state_downgrade)
        step = steps.get(stored)
        if step is None:
            raise MigrationError("kv_migration_missing", stored, stored + 1, stored, declared)
        tx = MigrationTx(session, namespace)
        try:
            step(tx)
            writes = [*tx.writes, {"op": "put", "namespace": namespace, "key": KV_VERSION_KEY,
                                   "value": stored + 1}]
            if len(writes) > L.KV_MAX_BATCH:
                raise ValueError(f"the step stages {len(tx.writes)} writes; one KV commit "
                                 f"holds {L.KV_MAX_BATCH - 1} with the version")
            session.send(senders.KV_COMMIT, {"preconditions": [pin], "writes": writes})
        except KVConflict:
            if conflicts >= _MAX_CONFLICTS:
                raise MigrationError("kv_migration_failed", stored, stored + 1, stored, declared,
                                     "the stored version kept changing") from None
            conflicts += 1  # another generation moved the version first: re-read
            continue
        except Exception as exc:  # the author's step may raise anything
            raise MigrationError("kv_migration_failed", stored, stored + 1, stored, declared,
                                 _reason(exc)) from exc
