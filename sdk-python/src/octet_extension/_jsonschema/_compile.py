"""The compiler: schema documents -> Nodes, once, refusing what cannot be compiled."""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING
from . import _kw_object, _kw_scalar
from ._context import Context, SchemaError
from ._node import Node, assemble, false_node
from ._refs import Place, Registry

# _kw_apply, _kw_array and _regex are imported where a schema first uses their keywords: a
# start compiles its tools' schemas, and most use neither applicators, arrays nor patterns,
# so each is a module load (about 0.2 ms) that start need not pay.

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ._node import Co, Ev


_TRUE = Node(None)
_APPLY = frozenset(("$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if"))
_OBJECT = frozenset(("properties", "patternProperties", "additionalProperties",
                     "propertyNames", "dependentSchemas", "required", "dependentRequired",
                     "minProperties", "maxProperties"))
_ARRAY = frozenset(("prefixItems", "items", "contains", "minItems", "maxItems", "uniqueItems"))
_PRE = frozenset(("type", "const", "enum"))
_STRING = frozenset(("minLength", "maxLength", "pattern"))
_NUMBER = frozenset(("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                     "multipleOf"))


class Compiler:
    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.nodes: dict[int, Node] = {}
        self.false = false_node()
        self._patterns: dict[str, Callable[[str], bool]] = {}

    def node(self, raw: Any, parent: Place | None = None, pointer: str = "") -> Node:
        if raw is True:
            return _TRUE
        if raw is False:
            return self.false
        if type(raw) is not dict:
            raise SchemaError(self._where(parent, pointer), "a schema must be an object or a "
                              f"boolean, got {type(raw).__name__}")
        found = self.nodes.get(id(raw))
        if found is not None:
            return found
        place = self.registry.place(raw)
        if place is None:  # a schema where the scan did not look (reached by a pointer)
            assert parent is not None
            self.registry.scan_at(raw, parent, pointer)
            place = self.registry.place(raw)
            assert place is not None
        starts = place.resource.root is raw
        node = Node(place.resource)
        self.nodes[id(raw)] = node
        c = Context(self, raw, place)
        keywords: list[tuple[Any, Ev, Co]] = []
        present = raw.keys()
        # Each keyword group only when one of its keywords is there: compiling is part of
        # every extension's start (each tool is compiled when it is defined).
        if not present.isdisjoint(_APPLY):
            from . import _kw_apply

            keywords += _kw_apply.apply_checks(raw, c)
        if not present.isdisjoint(_OBJECT):
            keywords += _kw_object.object_checks(raw, c)
        if not present.isdisjoint(_ARRAY):
            from . import _kw_array

            keywords += _kw_array.array_checks(raw, c)
        pre = []
        if c.validation:
            if not present.isdisjoint(_PRE):
                pre = _kw_scalar.pre_checks(raw, c)
            if not present.isdisjoint(_STRING):
                keywords += _kw_scalar.string_checks(raw, c)
            if not present.isdisjoint(_NUMBER):
                keywords += _kw_scalar.number_checks(raw, c)
        late: list[tuple[Any, Ev, Co]] = []
        if "unevaluatedProperties" in raw:
            late.append(_kw_object.unevaluated_properties(
                c.sub(raw["unevaluatedProperties"], "unevaluatedProperties")))
        if "unevaluatedItems" in raw:
            from . import _kw_array

            late.append(_kw_array.unevaluated_items(
                c.sub(raw["unevaluatedItems"], "unevaluatedItems")))
        assemble(node, pre, keywords, late, place.resource if starts else None)
        return node

    def pattern(self, source: str, where: str) -> Callable[[str], bool]:
        found = self._patterns.get(source)
        if found is None:
            from ._regex import PatternError, compile_pattern

            try:
                found = compile_pattern(source)
            except PatternError as exc:
                raise SchemaError(where, str(exc)) from None
            self._patterns[source] = found
        return found

    def dynamic_anchors(self) -> None:
        """Compile every $dynamicAnchor now, so a $dynamicRef never compiles at run time."""
        if not self.registry.has_dynamic_ref:
            return
        done: set[int] = set()
        while True:
            todo = [raw for res in list(self.registry.resources.values())
                    for raw in res.dynamic_anchors.values() if id(raw) not in done]
            if not todo:
                return
            for raw in todo:
                done.add(id(raw))
                self.node(raw)

    @staticmethod
    def _where(place: Place | None, pointer: str) -> str:
        if place is None:
            return pointer
        full = place.pointer + pointer
        return f"{place.document}#{full}" if place.document else full
