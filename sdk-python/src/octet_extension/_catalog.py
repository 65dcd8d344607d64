"""Tool catalogs by revision: the committed history (eight retained) plus one staged revision."""

from __future__ import annotations

import threading
from collections import OrderedDict

from ._errors import InvalidParams, ProtocolError
from ._limits import RETAINED_CATALOGS
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TypeAlias

    from ._registry import ToolSpec

    Catalog: TypeAlias = Mapping[str, ToolSpec]


class CatalogHistory:
    """Revision 0 is the initialize catalog; each acknowledged mutation commits revision n+1."""

    def __init__(self, initial: Catalog) -> None:
        self._revisions: OrderedDict[int, Catalog] = OrderedDict({0: dict(initial)})
        self.revision = 0
        self._staged: tuple[int, Catalog] | None = None
        # Mutations are transactions: one at a time, so "previous + 1" is well defined.
        self.mutation = threading.Lock()

    @property
    def current(self) -> Catalog:
        return self._revisions[self.revision]

    def lookup(self, revision: int | None) -> Catalog:
        """The catalog a call was pinned to; unknown or retired revisions are -32602."""
        if revision is None:
            return self._revisions[self.revision]
        found = self._revisions.get(revision)
        if found is not None:
            return found
        staged = self._staged
        if staged is not None and staged[0] == revision:
            return staged[1]
        oldest = next(iter(self._revisions))
        why = "retired" if revision < oldest else "unknown"
        raise InvalidParams(
            f"catalog revision {revision} is {why} (retained: {oldest}..{self.revision})",
            "catalog_revision",
        )

    def stage(self, catalog: Catalog) -> int:
        """Make the next revision addressable while its publication waits for the host's ack."""
        self._staged = (self.revision + 1, dict(catalog))
        return self.revision + 1

    def commit(self, revision: int, accepted: list[str]) -> None:
        staged = self._staged
        self._staged = None
        if staged is None or revision != staged[0]:
            raise ProtocolError(
                f"host acknowledged catalog revision {revision}, expected {self.revision + 1}"
            )
        unknown = [n for n in accepted if n not in staged[1]]
        if unknown:
            raise ProtocolError(f"host accepted tools this extension never defined: {unknown}")
        self._revisions[revision] = {n: staged[1][n] for n in accepted}
        self.revision = revision
        while len(self._revisions) > RETAINED_CATALOGS:
            self._revisions.popitem(last=False)

    def abort(self) -> None:
        self._staged = None
