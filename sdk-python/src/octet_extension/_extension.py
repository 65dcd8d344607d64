"""The public Extension: decorators, services and ``run()``."""

from __future__ import annotations

import os
import sys
import threading

from . import _limits as L
from ._cancel import CancellationToken, Id, current_call
from ._log import Logger
from ._migrate import Migrations
from ._negotiate import SUPPORTED_APIS
from ._registry import Registry
from ._services import (
    UI,
    Agents,
    Artifacts,
    Catalog,
    Link,
    Policy,
    Presentation,
    Progress,
    Secrets,
)
from ._session import Session
from ._transport import protect_stdio
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn

    from ._migrate import MigrationTx

    MigrationStep = Callable[[MigrationTx], None]

    from ._kv import KV

API_ENV = "OCTET_EXTENSION_API_VERSION"


class Extension(Registry):
    """An octet extension process: the registry of its handlers (``@ext.tool`` ...), the
    host's services as objects (``ext.kv``, ``ext.ui``, ``ext.agents`` ...) and ``run()``.

    ``api_version`` pins the wire for a standalone harness; normally leave it out and the SDK
    follows ``OCTET_EXTENSION_API_VERSION`` from the host (default "0.1", the frozen wire).
    """

    # The default concurrency bounds how many requests a host keeps in flight here, not how
    # many threads run: workers start only when queued work needs them (_workers.py), so a
    # stream of fast requests stays on one thread, while more requests in flight let the
    # reader take several per read. 8 (one thread per request) kept a host 32 calls deep at
    # about 60% of the floor's calls/s on a loaded 2-core machine; 32 at about 76%.
    def __init__(self, api_version: str | None = None, *, max_concurrent_requests: int = 32,
                 max_pending_requests: int = L.MAX_PENDING_REQUESTS) -> None:
        super().__init__()
        if api_version is not None and api_version not in SUPPORTED_APIS:
            raise ValueError(
                "API 0.3 is a distinct wire this SDK does not speak" if api_version == "0.3"
                else f"api_version {api_version!r} is not one of {list(SUPPORTED_APIS)}"
            )
        for name, value in (("max_concurrent_requests", max_concurrent_requests),
                            ("max_pending_requests", max_pending_requests)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (
                name == "max_concurrent_requests" and value < 1
            ):
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        self._pinned_api = api_version
        self._declared.max_concurrent_requests = max_concurrent_requests
        self._declared.max_pending_requests = max_pending_requests
        self._session: Session | None = None
        # The services reach the session through one link, set while serving.
        self._link = Link()
        self.ui = UI(self._link.send)
        self.presentation = Presentation(self._link)
        self.progress = Progress(self._link)
        self.artifacts = Artifacts(self._link.send)
        self.policy = Policy(self._link.send)
        self.secrets = Secrets(self._link)
        self.catalog = Catalog(self._link)
        self.agents = Agents(self._link.send)
        self._serving = threading.Lock()
        self.log = Logger()
        self._kv: KV | None = None
        self._migrations = Migrations()

    @property
    def max_concurrent_requests(self) -> int:
        """The most requests this extension serves at once (the host may lower it)."""
        return self._declared.max_concurrent_requests

    @max_concurrent_requests.setter
    def max_concurrent_requests(self, value: int) -> None:
        self._declared.max_concurrent_requests = value

    @property
    def max_pending_requests(self) -> int:
        """How many admitted requests may wait for a worker."""
        return self._declared.max_pending_requests

    @max_pending_requests.setter
    def max_pending_requests(self, value: int) -> None:
        self._declared.max_pending_requests = value

    @property
    def kv(self) -> KV:
        """The API 0.4 key-value store (``ext.kv.get/put/...``).

        Loaded on first use: its dataclasses pull in ``dataclasses`` and ``inspect``, several
        ms of start-up that extensions without KV should not pay. KV is stateless, so a race
        between two first uses only builds a spare one.
        """
        kv = self._kv
        if kv is None:
            from ._kv import KV

            kv = self._kv = KV(self._link, self._migrations)
        return kv

    def migration(self, *, from_version: int) -> Callable[[MigrationStep], MigrationStep]:
        """``@ext.migration(from_version=1)`` registers the step that rewrites the KV data of
        version ``from_version`` into ``from_version + 1`` (data stored without a version is
        version 1). The step gets a MigrationTx: reads see the committed data, ``put`` and
        ``delete`` are committed with the version bump in one KV commit. Before the first
        KV call the SDK runs the steps from the stored version up to the manifest's
        ``[state] kv_version``; a failure raises MigrationError and keeps the old data."""
        def register(fn: MigrationStep) -> MigrationStep:
            self._migrations.register(from_version, fn)
            return fn
        return register

    # ---- ambient state ---------------------------------------------------------------------

    @property
    def api_version(self) -> str:
        """The wire this process speaks: the pinned version, else the host's env, else 0.1."""
        return self._pinned_api or os.environ.get(API_ENV) or "0.1"

    @property
    def negotiated_features(self) -> frozenset[str]:
        session = self._session
        if session is None or session.negotiated is None:
            return frozenset()
        return session.negotiated.features

    @property
    def negotiated_concurrency(self) -> int:
        session = self._session
        if session is None or session.negotiated is None:
            return 0
        return session.negotiated.concurrency

    @property
    def request_id(self) -> Id | None:
        """The id of the host request the calling handler serves (None outside handlers)."""
        call = current_call.get()
        return None if call is None else call.id

    @property
    def cancellation(self) -> CancellationToken | None:
        """The calling handler's cancellation token (None outside handlers)."""
        call = current_call.get()
        return None if call is None else call.token

    # ---- serving ---------------------------------------------------------------------------

    def serve(self, in_fd: int, out_fd: int, *, api_version: str | None = None) -> int:
        """Serve one host connection on raw fds until shutdown or EOF; returns the exit code.

        ``run()`` is this plus stdio protection; the testing helper calls it with pipes.
        """
        if not self._serving.acquire(blocking=False):
            raise RuntimeError("this Extension is already serving a connection")
        try:
            api = self._pinned_api or api_version or self.api_version
            self._session = self._link.session = Session(self._declared, in_fd, out_fd, api)
            return self._session.serve()
        finally:
            self._serving.release()

    def run(self) -> NoReturn:
        """Serve the host over stdin/stdout, then exit the process (0 after a clean close)."""
        proto_in, proto_out = protect_stdio()
        code = self.serve(proto_in, proto_out)
        sys.stderr.flush()
        sys.exit(code)
