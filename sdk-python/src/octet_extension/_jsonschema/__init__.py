"""A complete JSON Schema draft 2020-12 validator (core, applicator, unevaluated and
validation vocabularies; ``format`` is an annotation), with no dependencies.

``compile_schema`` turns a schema into a ``Validator`` once: every ``$ref`` is resolved, every
pattern compiled, every keyword checked, and a schema that cannot be compiled raises
``SchemaError`` naming the JSON pointer of the bad keyword. ``Validator.is_valid`` is the fast
path (no fault objects); ``Validator.fault`` gives the one fault the fault contract reports
(docs/conformance.md#validation-faults), as the Go and TypeScript SDKs do.
"""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING
from ._compile import Compiler
from ._context import SchemaError
from ._refs import Registry
from ._values import pointer as format_pointer

if TYPE_CHECKING:
    from typing import Any

    from ._faults import Fault
    from ._node import Node

__all__ = ["Fault", "SchemaError", "Validator", "compile_schema", "format_pointer"]

DEFAULT_BASE = "urn:octet:schema"


class Validator:
    """A compiled schema."""

    __slots__ = ("_node",)

    def __init__(self, node: Node) -> None:
        self._node = node

    def is_valid(self, instance: Any) -> bool:
        return self._node.ev(instance, None, False) is not None

    def faults(self, instance: Any) -> list[Fault]:
        """Every fault the contract counts ([] for a valid instance)."""
        if self.is_valid(instance):
            return []
        out: list[Fault] = []
        self._node.co(instance, (), None, out)
        return out

    def fault(self, instance: Any) -> tuple[str, str, str] | None:
        """(pointer, keyword, reason) of the reported fault, or None when valid."""
        faults = self.faults(instance)
        if not faults:
            return None
        tokens, _rank, reason, keyword = min(faults)
        return format_pointer(tokens), keyword, reason


def compile_schema(schema: Any, *, documents: dict[str, Any] | None = None,
                   base_uri: str = DEFAULT_BASE) -> Validator:
    """Compile a schema (a dict or a bool). ``documents`` maps URIs to the other schema
    documents a ``$ref`` may name (nothing is fetched). Numbers are judged as draft 2020-12
    says: an integral float (1.0) is an integer, and an int is exact at any size."""
    registry = Registry(documents)
    compiler = Compiler(registry)
    if type(schema) is dict:
        registry.add(base_uri, schema, "")
    node = compiler.node(schema)
    compiler.dynamic_anchors()
    return Validator(node)
