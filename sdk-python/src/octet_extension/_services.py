"""The service objects: ``ext.ui``, ``ext.presentation``, ``ext.progress``, ``ext.artifacts``,
``ext.policy``, ``ext.secrets``, ``ext.catalog``, ``ext.agents`` (``ext.kv`` is in _kv.py).

Each subclasses its generated operations (_generated/services.py: arguments, options and the
one send of the session, which checks the feature and validates with the schema) and adds
only what the schema cannot say: the conveniences of schema/sdk-surface.json, the progress
sequence, the presentation revision order, the manifest's secret allowlist, and the staging
of a catalog mutation around the host's acknowledgement.
"""

from __future__ import annotations

from ._cancel import current_call
from ._errors import InvalidParams, ProtocolError, UnavailableError
from ._generated import senders
from ._generated.dispatch import FEATURE_PROGRESS_DECORATION
from ._generated.services import (
    AgentsOperations,
    ArtifactsOperations,
    CatalogOperations,
    PolicyOperations,
    PresentationOperations,
    ProgressOperations,
    SecretsOperations,
    UIOperations,
)
from ._registry import ToolSpec, make_tool
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

    from ._generated._models import ToolsCatalogResult
    from ._session import Session


class Link:
    """Where the services reach the live session: set while the extension serves one."""

    __slots__ = ("session",)

    def __init__(self) -> None:
        self.session: Session | None = None

    def live(self, what: str) -> Session:
        session = self.session
        if session is None or session.negotiated is None:
            raise UnavailableError(f"{what} is only available after initialize")
        return session

    def send(self, send: senders.Send, params: dict[str, Any]) -> Any:
        return self.live(f"{send.service}.{send.operation}()").send(send, params)


class UI(UIOperations):
    """``ext.ui``: notify, confirm, request_input, contribute_context, contribute_status."""


class Presentation(PresentationOperations):
    """``ext.presentation.update(snapshot)``: revisions must increase within a generation."""

    def __init__(self, link: Link) -> None:
        super().__init__(link.send)
        self._link = link

    def _send(self, send: senders.Send, params: dict[str, Any]) -> Any:
        session = self._link.live("presentation.update()")
        snapshot = params.get("snapshot")
        revision = snapshot.get("revision") if isinstance(snapshot, dict) else None
        # Its own lock: revision check and send are one step, and a send may wait for the
        # writer's bound, which must never hold up the session's lock (the reader needs it).
        with session.presentation_lock:
            if isinstance(revision, int) and revision <= session.presentation_revision:
                raise InvalidParams(
                    f"revision {revision} does not increase on {session.presentation_revision}",
                    "snapshot.revision")
            super()._send(send, params)
            if isinstance(revision, int):
                session.presentation_revision = revision


class Progress(ProgressOperations):
    """``ext.progress``: report(event), and the output and decoration conveniences."""

    def __init__(self, link: Link) -> None:
        super().__init__(link.send)
        self._link = link

    def _send(self, send: senders.Send, params: dict[str, Any]) -> Any:
        if "sequence" not in params:  # the call's next number (sequences are per parent)
            session = self._link.live("progress.report()")
            parent = params.get("parent_request_id")
            if parent is None:
                call = current_call.get()
                parent = None if call is None else call.id
            if parent is None:
                raise UnavailableError("progress.report() needs an active handler or an "
                                       "explicit parent_request_id=")
            call = session.inflight.get(parent)
            if call is None:
                raise UnavailableError(f"progress.report(): parent request {parent!r} is not "
                                       "being served")
            with session._lock:
                call.sequence += 1
                params["sequence"] = call.sequence
            params["parent_request_id"] = parent
        return super()._send(send, params)

    def output(self, stream: str, data: str, *, encoding: str | None = None,
               parent_request_id: int | str | None = None) -> None:
        """Report a chunk of a child process's output (``stream`` is stdout or stderr)."""
        event: dict[str, Any] = {"type": "output", "stream": stream, "data": data}
        if encoding is not None:
            event["encoding"] = encoding
        self.report(event, parent_request_id=parent_request_id)  # type: ignore[arg-type]

    def decoration(self, label: str, detail: str | None = None, *,
                   parent_request_id: int | str | None = None) -> None:
        """Decorate the running call's progress row (needs ``progress_decoration``)."""
        # One feature the descriptor cannot name: it gates an event type, not the method.
        negotiated = self._link.live("progress.decoration()").negotiated
        if negotiated is None or FEATURE_PROGRESS_DECORATION not in negotiated.features:
            raise UnavailableError("progress.decoration() needs the 'progress_decoration' "
                                   "feature, which was not negotiated with the host")
        event: dict[str, Any] = {"type": "decoration", "label": label}
        if detail is not None:
            event["detail"] = detail
        self.report(event, parent_request_id=parent_request_id)  # type: ignore[arg-type]


class Artifacts(ArtifactsOperations):
    """``ext.artifacts.publish(mime_type=..., data=<base64> | path=, size=, sha256=)``."""


class Policy(PolicyOperations):
    """``ext.policy.evaluate(intent)``: allow, ask or deny."""

    def _send(self, send: senders.Send, params: dict[str, Any]) -> Any:
        result = super()._send(send, params)
        # The schema checked the decision and the token's form; that a token comes only
        # with "ask" is a rule across fields it cannot state.
        if "approval_token" in result and result["decision"] != "ask":
            raise ProtocolError("policy.evaluate(): an approval_token may only come with 'ask'")
        return result


class Secrets(SecretsOperations):
    """``ext.secrets.get(name)``: a brokered secret of the manifest's allowlist."""

    def __init__(self, link: Link) -> None:
        super().__init__(link.send)
        self._link = link

    def _send(self, send: senders.Send, params: dict[str, Any]) -> Any:
        negotiated = self._link.live("secrets.get()").negotiated
        assert negotiated is not None
        capabilities = negotiated.manifest.get("capabilities") or {}
        allowed = capabilities.get("secrets") or [] if isinstance(capabilities, dict) else []
        if params.get("name") not in allowed:
            raise InvalidParams(f"secret {params.get('name')!r} is not declared in "
                                "[capabilities] secrets", "name")
        return super()._send(send, params)


class Catalog(CatalogOperations):
    """``ext.catalog``: register(tools), unregister(names), replace(tools), revision().

    A tool here is a definition with its handler (name, description, handler, parameters,
    output_schema); the catalog is staged, sent, and committed only with the host's
    acknowledgement of exactly the next revision.
    """

    def __init__(self, link: Link) -> None:
        super().__init__(link.send)
        self._link = link

    def revision(self) -> int:
        """The last revision the host acknowledged (0 after initialize)."""
        session = self._link.session
        if session is None or session.catalogs is None:
            return 0
        return session.catalogs.revision

    def register(self, tools: Iterable[dict[str, Any]]) -> ToolsCatalogResult:  # type: ignore[override]
        """Add or replace tools in one transactional request."""
        specs = self._specs("catalog.register()", tools)
        return self._mutate(senders.TOOLS_REGISTER, {"tools": [s.definition() for s in specs]},
                            lambda current: {**current, **{s.name: s for s in specs}})

    def replace(self, tools: Iterable[dict[str, Any]]) -> ToolsCatalogResult:  # type: ignore[override]
        """Make ``tools`` the whole catalog: one revision, or nothing changes."""
        specs = self._specs("catalog.replace()", tools)
        return self._mutate(senders.TOOLS_REPLACE, {"tools": [s.definition() for s in specs]},
                            lambda current: {s.name: s for s in specs})

    def unregister(self, names: list[str]) -> ToolsCatalogResult:
        """Remove tools (absent names are harmless)."""
        gone = set(names) if isinstance(names, list) else set()
        return self._mutate(senders.TOOLS_UNREGISTER, {"names": names},
                            lambda current: {k: v for k, v in current.items() if k not in gone})

    def _specs(self, what: str, definitions: Iterable[dict[str, Any]]) -> list[ToolSpec]:
        session = self._link.live(what)
        specs: list[ToolSpec] = []
        for index, definition in enumerate(definitions):
            if not isinstance(definition, dict):
                raise InvalidParams("must be a dict", f"tools[{index}]")
            unknown = set(definition) - {"name", "description", "handler", "parameters",
                                         "output_schema"}
            if unknown:
                raise InvalidParams(f"unknown keys {sorted(unknown)}", f"tools[{index}]")
            try:
                specs.append(make_tool(definition.get("name"),  # type: ignore[arg-type]
                                       definition.get("description", ""),
                                       definition.get("handler"),  # type: ignore[arg-type]
                                       definition.get("parameters"),
                                       definition.get("output_schema")))
            except (TypeError, ValueError) as exc:
                raise InvalidParams(str(exc), f"tools[{index}]") from None
        if session.legacy and any(s.output_schema for s in specs):
            raise InvalidParams("API 0.1 forbids output_schema")
        names = [s.name for s in specs]
        if len(set(names)) != len(names):  # the schema cannot say "unique by name"
            raise InvalidParams("a tool name appears twice in one request", "tools")
        return specs

    def _mutate(self, send: senders.Send, params: dict[str, Any],
                change: Callable[[dict[str, ToolSpec]], dict[str, ToolSpec]]
                ) -> ToolsCatalogResult:
        what = f"catalog.{send.operation}()"
        catalogs = self._link.live(what).catalogs
        if catalogs is None:
            raise UnavailableError(f"{what} is only available once the catalog exists")
        with catalogs.mutation:
            staged = change(dict(catalogs.current))
            expected = catalogs.stage(staged)
            try:
                # Awaited whatever the handler's cancellation (send does not watch it for the
                # catalog): the host may commit the revision, and abandoning the answer would
                # leave this side one behind.
                result: ToolsCatalogResult = self._send(send, params)
            except BaseException:
                catalogs.abort()
                raise
            if result["revision"] != expected:
                catalogs.abort()
                raise ProtocolError(f"catalog.{send.operation}(): host answered revision "
                                    f"{result['revision']}, expected {expected}")
            catalogs.commit(expected, [n for n in result["tools"] if isinstance(n, str)])
        return result


class Agents(AgentsOperations):
    """``ext.agents``: spawn, message, follow_up, models, list, wait, interrupt."""
