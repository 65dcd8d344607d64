"""State shared by the Extension's service mixins: the live session and the common gates."""

from __future__ import annotations

from types import EllipsisType

from ._cancel import Id, current_call
from ._errors import UnavailableError
from ._negotiate import Negotiated
from ._session import Session
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    pass

ParentId = Id | EllipsisType


class Base:
    _session: Session | None

    def _live(self, what: str) -> Session:
        session = self._session
        if session is None or session.negotiated is None:
            raise UnavailableError(f"{what} is only available after initialize")
        return session

    def _negotiated(self, what: str) -> tuple[Session, Negotiated]:
        session = self._live(what)
        assert session.negotiated is not None
        return session, session.negotiated

    def _require(self, feature: str, what: str) -> Session:
        session, negotiated = self._negotiated(what)
        if feature not in negotiated.features:
            raise UnavailableError(f"{what} needs the {feature!r} feature, which was not "
                                   "negotiated with the host")
        return session

    def _parent(self, session: Session, parent_request_id: ParentId, what: str) -> Id:
        """The ambient handler's request id, or an explicit one we are still serving."""
        if parent_request_id is ...:
            call = current_call.get()
            if call is None:
                raise UnavailableError(f"{what} needs an active handler or an explicit "
                                       "parent_request_id=")
            return call.id
        if parent_request_id not in session.inflight:
            raise UnavailableError(f"{what}: parent request {parent_request_id!r} is not being "
                                   "served")
        return parent_request_id

    def _manifest_flag(self, negotiated: Negotiated, flag: str, what: str) -> None:
        if negotiated.contributes.get(flag) is not True:
            raise UnavailableError(f"{what} needs [contributes] {flag} = true in the manifest")

