"""What a keyword compiler sees of the schema object it compiles, and the compile error.

Its own module so the keyword modules (_kw_*.py) and the compiler that calls them do not
import each other: the compiler reaches the context, the context reaches the compiler only
through the narrow interface below.
"""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING
from ._refs import Place, RefError, Resource

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    from ._node import Node
    from ._refs import Registry

    class Compiles(Protocol):
        """The compiler as a context uses it (_compile.Compiler)."""

        registry: Registry

        def node(self, raw: Any, parent: Place | None = None, pointer: str = "") -> Node: ...

        def pattern(self, source: str, where: str) -> Callable[[str], bool]: ...


class SchemaError(ValueError):
    """A schema that cannot be compiled; ``pointer`` names the bad keyword."""

    def __init__(self, pointer: str, reason: str) -> None:
        super().__init__(f"{pointer or '(root)'}: {reason}")
        self.pointer = pointer
        self.reason = reason


class Context:
    """What a keyword compiler sees of the schema object it compiles."""

    def __init__(self, compiler: Compiles, raw: dict[str, Any], place: Place) -> None:
        self.compiler = compiler
        self.raw = raw
        self.place = place
        self.validation = place.resource.validation

    def where(self, *path: str) -> str:
        tokens = "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in path)
        pointer = self.place.pointer + tokens
        return f"{self.place.document}#{pointer}" if self.place.document else pointer

    def expect(self, ok: bool, keyword: str, reason: str) -> None:
        if not ok:
            raise SchemaError(self.where(keyword), reason)

    def count(self, s: dict[str, Any], keyword: str) -> int | None:
        if keyword not in s:
            return None
        value = s[keyword]
        ok = (type(value) is int or (type(value) is float and value.is_integer())) and value >= 0
        self.expect(ok, keyword, "must be a non-negative integer")
        return int(value)

    def sub(self, raw: Any, *path: str) -> Node:
        return self.compiler.node(raw, self.place, "".join(
            "/" + p.replace("~", "~0").replace("/", "~1") for p in path))

    def pattern(self, source: str, *path: str) -> Callable[[str], bool]:
        return self.compiler.pattern(source, self.where(*path))

    def ref(self, ref: Any, keyword: str) -> tuple[Node, Resource | None, Any]:
        self.expect(type(ref) is str, keyword, "must be a string")
        try:
            raw = self.compiler.registry.resolve(self.place.resource.uri, ref)
        except RefError as exc:
            raise SchemaError(self.where(keyword), f"cannot resolve {ref!r}: {exc}") from None
        place = self.compiler.registry.place(raw)
        return (self.compiler.node(raw, self.place, "/" + keyword),
                place.resource if place is not None else None, raw)

    def node_for(self, raw: Any) -> Node:
        return self.compiler.node(raw)
