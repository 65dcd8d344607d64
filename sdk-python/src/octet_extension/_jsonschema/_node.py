"""Compiled schemas: a Node per schema object, built from keyword closures.

Every node has two entry points. ``ev(instance, scope, need)`` is the fast path: it stops at
the first failure and allocates nothing unless a caller needs annotations (``need``, only
under ``unevaluatedProperties``/``unevaluatedItems``); it returns None when the instance is
invalid, else True or the annotations (``Ann``). ``co(instance, pointer, scope, out)`` runs
only after ``ev`` said invalid and appends every fault the contract counts to ``out``.

``scope`` is the dynamic scope for ``$dynamicRef``: a linked list ``(resource, outer)`` of
the resources entered on the way to this node.
"""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING
from ._faults import fault

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeAlias

    from ._faults import Fault
    from ._refs import Resource

    Scope: TypeAlias = "tuple[Resource, Any] | None"
    Ev: TypeAlias = Callable[[Any, Any, "Ann | None"], bool]
    Co: TypeAlias = Callable[[Any, tuple[str, ...], Any, list[Fault], "Ann"], None]
    Pre: TypeAlias = tuple[str, Callable[[Any], bool], Callable[[Any], str]]

ALL = 1 << 62  # "every index" for Ann.items


class Ann:
    """What a successful evaluation evaluated: property names, and items (all indexes below
    ``items`` plus those in ``item_set``)."""

    __slots__ = ("item_set", "items", "props")

    def __init__(self) -> None:
        self.props: set[str] = set()
        self.items = 0
        self.item_set: set[int] = set()

    def merge(self, other: Ann | bool | None) -> None:
        if type(other) is Ann:
            self.props |= other.props
            if other.items > self.items:
                self.items = other.items
            self.item_set |= other.item_set


class Node:
    """One compiled schema. ``ev``/``co`` are filled in after construction, so a ``$ref``
    cycle can point at a node still being compiled."""

    __slots__ = ("co", "ev", "is_false", "resource")

    def __init__(self, resource: Resource | None) -> None:
        self.resource = resource
        self.is_false = False
        self.ev: Callable[[Any, Any, bool], Any] = _always
        self.co: Callable[[Any, tuple[str, ...], Any, list[Fault]], None] = _nothing


def _always(inst: Any, scope: Any, need: bool) -> Any:
    return Ann() if need else True


def _nothing(inst: Any, ptr: tuple[str, ...], scope: Any, out: list[Fault]) -> None:
    return None


def false_node() -> Node:
    node = Node(None)
    node.is_false = True

    def ev(inst: Any, scope: Any, need: bool) -> Any:
        return None

    def co(inst: Any, ptr: tuple[str, ...], scope: Any, out: list[Fault]) -> None:
        out.append(fault(ptr, "false", "no value is allowed"))

    node.ev, node.co = ev, co
    return node


def assemble(node: Node, pre: list[Pre], keywords: list[tuple[Any, Ev, Co]],
             late: list[tuple[Any, Ev, Co]], root_resource: Resource | None) -> None:
    """Fill a node from its checks. ``pre`` are type/const/enum (a failure there hides the
    object's other keywords, as in the Go oracle); ``keywords`` are (instance type or None,
    ev, co); ``late`` the unevaluated* keywords, which run after every other keyword.
    ``root_resource`` is set when the node starts a resource (enters the dynamic scope)."""
    groups: dict[Any, list[tuple[Any, Ev, Co]]] = {None: [], dict: [], list: [], str: [],
                                                   "number": [], float: []}
    for k in keywords:
        groups[k[0]].append(k)
    for k in late:  # always dict or list keywords; after everything else
        groups[k[0]].append(k)
    common = groups[None]
    by_type: dict[type, tuple[Ev, ...]] = {}
    co_by_type: dict[type, tuple[Co, ...]] = {}
    for kinds, key in (((dict,), dict), ((list,), list), ((str,), str), ((int,), "number"),
                       ((float,), float), ((bool, type(None)), None)):
        chosen = common if key is None else common + groups[key]
        if key is float:  # the number keywords, then the octet integer rule
            chosen = common + groups["number"] + groups[float]
        if chosen:
            for kind in kinds:
                by_type[kind] = tuple(k[1] for k in chosen)
                co_by_type[kind] = tuple(k[2] for k in chosen)
    tracks = bool(late)
    tests = tuple(p[1] for p in pre)
    res = root_resource
    empty: tuple[Ev, ...] = ()

    if not by_type and res is None:
        if not tests:
            node.ev = _always
            return
        if len(tests) == 1:  # the commonest schema: {"type": "string"} and the like
            only = tests[0]

            def ev_one(inst: Any, scope: Any, need: bool) -> Any:
                if not only(inst):
                    return None
                return Ann() if need else True
            node.ev = ev_one

    def ev(inst: Any, scope: Any, need: bool) -> Any:
        for test in tests:
            if not test(inst):
                return None
        checks = by_type.get(type(inst), empty)
        if not checks:
            return Ann() if need else True
        if res is not None:
            scope = (res, scope)
        ann = Ann() if need or tracks else None
        for check in checks:
            if not check(inst, scope, ann):
                return None
        return ann if need else True

    def co(inst: Any, ptr: tuple[str, ...], scope: Any, out: list[Fault]) -> None:
        for keyword, test, reason in pre:
            if not test(inst):
                out.append(fault(ptr, keyword, reason(inst)))
                return
        if res is not None:
            scope = (res, scope)
        ann = Ann()
        for check in co_by_type.get(type(inst), ()):
            check(inst, ptr, scope, out, ann)

    if node.ev is _always:
        node.ev = ev
    node.co = co


def judge(node: Node, inst: Any, ptr: tuple[str, ...], scope: Any, out: list[Fault],
          ann: Ann | None) -> None:
    """An in-place subschema in collect mode: its annotations when it passes (merged into
    ann), its faults when it fails."""
    result = node.ev(inst, scope, True)
    if result is None:
        node.co(inst, ptr, scope, out)
    elif ann is not None:
        ann.merge(result)
