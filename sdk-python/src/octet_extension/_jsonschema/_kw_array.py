"""Array keywords: prefixItems, items, contains/minContains/maxContains, min/maxItems,
uniqueItems, unevaluatedItems."""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING
from ._faults import fault
from ._node import ALL
from ._values import first_duplicate

if TYPE_CHECKING:
    from typing import Any

    from ._context import Context
    from ._node import Ann, Co, Ev, Node


def array_checks(s: dict[str, Any], c: Context) -> list[tuple[Any, Ev, Co]]:
    out: list[tuple[Any, Ev, Co]] = []
    if c.validation:
        out += _counts(s, c)
    prefix_raw = s.get("prefixItems", [])
    c.expect(type(prefix_raw) is list, "prefixItems", "must be an array of schemas")
    prefix = tuple(c.sub(x, "prefixItems", str(i)) for i, x in enumerate(prefix_raw))
    items = c.sub(s["items"], "items") if "items" in s else None
    if prefix or items is not None:
        out.append(_items(prefix, items))
    if "contains" in s:
        low = c.count(s, "minContains") if c.validation else None
        high = c.count(s, "maxContains") if c.validation else None
        out.append(_contains(c.sub(s["contains"], "contains"), low, high))
    return out


def _counts(s: dict[str, Any], c: Context) -> list[tuple[Any, Ev, Co]]:
    out: list[tuple[Any, Ev, Co]] = []
    low, high = c.count(s, "minItems"), c.count(s, "maxItems")
    if low is not None or high is not None:
        lo, hi = low or 0, high if high is not None else -1

        def ev_n(v: list[Any], scope: Any, ann: Any) -> bool:
            return len(v) >= lo and (hi < 0 or len(v) <= hi)

        def co_n(v: list[Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
                 ann: Any) -> None:
            if len(v) < lo:
                out.append(fault(ptr, "minItems", f"want at least {lo} items, got {len(v)}"))
            if 0 <= hi < len(v):
                out.append(fault(ptr, "maxItems", f"want at most {hi} items, got {len(v)}"))

        out.append((list, ev_n, co_n))
    unique = s.get("uniqueItems", False)
    c.expect(type(unique) is bool, "uniqueItems", "must be a boolean")
    if unique:
        def ev_u(v: list[Any], scope: Any, ann: Any) -> bool:
            return len(v) < 2 or first_duplicate(v) is None

        def co_u(v: list[Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
                 ann: Any) -> None:
            pair = first_duplicate(v)
            if pair is not None:
                out.append(fault(ptr, "uniqueItems", f"items {pair[0]} and {pair[1]} are equal"))

        out.append((list, ev_u, co_u))
    return out


def _items(prefix: tuple[Node, ...], items: Node | None) -> tuple[Any, Ev, Co]:
    n_prefix = len(prefix)
    closed = items is not None and items.is_false

    def ev(v: list[Any], scope: Any, ann: Ann | None) -> bool:
        for node, item in zip(prefix, v, strict=False):
            if node.ev(item, scope, False) is None:
                return False
        if items is not None and len(v) > n_prefix:
            if closed:
                return False
            for item in v[n_prefix:]:
                if items.ev(item, scope, False) is None:
                    return False
        if ann is not None:
            reached = ALL if items is not None else min(n_prefix, len(v))
            if reached > ann.items:
                ann.items = reached
        return True

    def co(v: list[Any], ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        for index, (node, item) in enumerate(zip(prefix, v, strict=False)):
            if node.ev(item, scope, False) is None:
                node.co(item, (*ptr, str(index)), scope, out)
        if items is not None:
            for index in range(n_prefix, len(v)):
                if closed:
                    out.append(fault(ptr, "items", f"unexpected item at index {index}"))
                elif items.ev(v[index], scope, False) is None:
                    items.co(v[index], (*ptr, str(index)), scope, out)
        reached = ALL if items is not None else min(n_prefix, len(v))
        if reached > ann.items:
            ann.items = reached

    return (list, ev, co)


def _contains(node: Node, low: int | None, high: int | None) -> tuple[Any, Ev, Co]:
    want = 1 if low is None else low

    def matching(v: list[Any], scope: Any) -> list[int]:
        return [i for i, item in enumerate(v) if node.ev(item, scope, False) is not None]

    def ev(v: list[Any], scope: Any, ann: Ann | None) -> bool:
        if ann is None and high is None:  # stop at the wanted count
            found = 0
            if want == 0:
                return True
            for item in v:
                if node.ev(item, scope, False) is not None:
                    found += 1
                    if found >= want:
                        return True
            return False
        hits = matching(v, scope)
        if len(hits) < want or (high is not None and len(hits) > high):
            return False
        if ann is not None:
            ann.item_set.update(hits)
        return True

    def co(v: list[Any], ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        hits = matching(v, scope)
        ann.item_set.update(hits)
        if low is not None:
            if len(hits) < low:
                out.append(fault(ptr, "minContains",
                                 f"want at least {low} items matching contains, got {len(hits)}"))
        elif not hits:
            out.append(fault(ptr, "contains", "no item matches contains"))
        if high is not None and len(hits) > high:
            out.append(fault(ptr, "maxContains",
                             f"want at most {high} items matching contains, got {len(hits)}"))

    return (list, ev, co)


def unevaluated_items(node: Node) -> tuple[Any, Ev, Co]:
    closed = node.is_false

    def ev(v: list[Any], scope: Any, ann: Ann | None) -> bool:
        assert ann is not None
        for index in range(ann.items, len(v)):
            if index not in ann.item_set and (closed or node.ev(v[index], scope, False) is None):
                return False
        ann.items = ALL
        return True

    def co(v: list[Any], ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        for index in range(ann.items, len(v)):
            if index not in ann.item_set:
                if closed:
                    out.append(fault(ptr, "unevaluatedItems", f"unexpected item at index {index}"))
                elif node.ev(v[index], scope, False) is None:
                    node.co(v[index], (*ptr, str(index)), scope, out)

    return (list, ev, co)
