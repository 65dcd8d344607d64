"""In-place applicators: $ref, $dynamicRef, allOf, anyOf, oneOf, not, if/then/else.

They judge the instance itself; a passing subschema's annotations count for unevaluated*.
anyOf, oneOf and not report themselves; the others pass on their subschemas' faults.
"""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING
from ._faults import fault
from ._node import judge

if TYPE_CHECKING:
    from typing import Any

    from ._context import Context
    from ._node import Ann, Co, Ev, Node
    from ._refs import Resource


def apply_checks(s: dict[str, Any], c: Context) -> list[tuple[Any, Ev, Co]]:
    out: list[tuple[Any, Ev, Co]] = []
    if "$ref" in s:
        target, resource, _raw = c.ref(s["$ref"], "$ref")
        out.append(_ref(target, resource))
    if "$dynamicRef" in s:
        out.append(_dynamic_ref(c, s["$dynamicRef"]))
    for keyword in ("allOf", "anyOf", "oneOf"):
        if keyword in s:
            subs = s[keyword]
            c.expect(type(subs) is list and bool(subs), keyword,
                     "must be a non-empty array of schemas")
            nodes = tuple(c.sub(x, keyword, str(i)) for i, x in enumerate(subs))
            out.append({"allOf": _all_of, "anyOf": _any_of, "oneOf": _one_of}[keyword](nodes))
    if "not" in s:
        out.append(_not(c.sub(s["not"], "not")))
    if "if" in s:
        # Even without then/else, a passing if's annotations count for unevaluated*.
        then = c.sub(s["then"], "then") if "then" in s else None
        other = c.sub(s["else"], "else") if "else" in s else None
        out.append(_if(c.sub(s["if"], "if"), then, other))
    return out


def _enter(resource: Resource | None, scope: Any) -> Any:
    if resource is None or (scope is not None and scope[0] is resource):
        return scope
    return (resource, scope)


def _ref(target: Node, resource: Resource | None) -> tuple[Any, Ev, Co]:
    def ev(v: Any, scope: Any, ann: Ann | None) -> bool:
        result = target.ev(v, _enter(resource, scope), ann is not None)
        if result is None:
            return False
        if ann is not None:
            ann.merge(result)
        return True

    def co(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        judge(target, v, ptr, _enter(resource, scope), out, ann)

    return (None, ev, co)


def _dynamic_ref(c: Context, ref: Any) -> tuple[Any, Ev, Co]:
    target, resource, raw = c.ref(ref, "$dynamicRef")
    anchor = ref.partition("#")[2]
    dynamic = (bool(anchor) and "/" not in anchor and type(raw) is dict
               and raw.get("$dynamicAnchor") == anchor)

    def pick(scope: Any) -> tuple[Node, Resource | None]:
        if not dynamic:
            return target, resource
        found: tuple[Node, Resource | None] = (target, resource)
        while scope is not None:  # the outermost resource with the anchor wins
            res = scope[0]
            node = res.dynamic_anchors.get(anchor)
            if node is not None:
                found = (c.node_for(node), res)
            scope = scope[1]
        return found

    def ev(v: Any, scope: Any, ann: Ann | None) -> bool:
        node, res = pick(scope)
        result = node.ev(v, _enter(res, scope), ann is not None)
        if result is None:
            return False
        if ann is not None:
            ann.merge(result)
        return True

    def co(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        node, res = pick(scope)
        judge(node, v, ptr, _enter(res, scope), out, ann)

    return (None, ev, co)


def _all_of(nodes: tuple[Node, ...]) -> tuple[Any, Ev, Co]:
    def ev(v: Any, scope: Any, ann: Ann | None) -> bool:
        need = ann is not None
        for node in nodes:
            result = node.ev(v, scope, need)
            if result is None:
                return False
            if need:
                ann.merge(result)  # type: ignore[union-attr]
        return True

    def co(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        for node in nodes:
            judge(node, v, ptr, scope, out, ann)

    return (None, ev, co)


def _any_of(nodes: tuple[Node, ...]) -> tuple[Any, Ev, Co]:
    def ev(v: Any, scope: Any, ann: Ann | None) -> bool:
        if ann is None:
            return any(node.ev(v, scope, False) is not None for node in nodes)
        ok = False
        for node in nodes:  # every branch: each passing one adds annotations
            result = node.ev(v, scope, True)
            if result is not None:
                ok = True
                ann.merge(result)
        return ok

    def co(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        if not ev(v, scope, ann):
            out.append(fault(ptr, "anyOf", "matches no anyOf branch"))

    return (None, ev, co)


def _one_of(nodes: tuple[Node, ...]) -> tuple[Any, Ev, Co]:
    def matches(v: Any, scope: Any) -> tuple[list[int], list[Any]]:
        hits: list[int] = []
        found: list[Any] = []
        for index, node in enumerate(nodes):
            result = node.ev(v, scope, True)
            if result is not None:
                hits.append(index)
                found.append(result)
                if len(hits) == 2:
                    break
        return hits, found

    def ev(v: Any, scope: Any, ann: Ann | None) -> bool:
        if ann is None:
            count = 0
            for node in nodes:
                if node.ev(v, scope, False) is not None:
                    count += 1
                    if count > 1:
                        return False
            return count == 1
        hits, found = matches(v, scope)
        if len(hits) != 1:
            return False
        ann.merge(found[0])
        return True

    def co(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        hits, found = matches(v, scope)
        for result in found:  # every passing branch counts, as in the Go oracle
            ann.merge(result)
        if not hits:
            out.append(fault(ptr, "oneOf", "matches no oneOf branch"))
        elif len(hits) == 2:
            out.append(fault(ptr, "oneOf", f"matches oneOf branches {hits[0]} and {hits[1]}"))

    return (None, ev, co)


def _not(node: Node) -> tuple[Any, Ev, Co]:
    def ev(v: Any, scope: Any, ann: Ann | None) -> bool:
        return node.ev(v, scope, False) is None

    def co(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        result = node.ev(v, scope, True)
        if result is not None:
            ann.merge(result)  # the Go oracle counts what the matching not schema evaluated
            out.append(fault(ptr, "not", "matches the not schema"))

    return (None, ev, co)


def _if(cond: Node, then: Node | None, other: Node | None) -> tuple[Any, Ev, Co]:
    def ev(v: Any, scope: Any, ann: Ann | None) -> bool:
        need = ann is not None
        if not need and then is None and other is None:
            return True
        result = cond.ev(v, scope, need)
        branch = then if result is not None else other
        if need and result is not None:
            ann.merge(result)  # type: ignore[union-attr]
        if branch is None:
            return True
        taken = branch.ev(v, scope, need)
        if taken is None:
            return False
        if need:
            ann.merge(taken)  # type: ignore[union-attr]
        return True

    def co(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Ann) -> None:
        result = cond.ev(v, scope, True)
        if result is not None:
            ann.merge(result)
        branch = then if result is not None else other
        if branch is not None:
            judge(branch, v, ptr, scope, out, ann)

    return (None, ev, co)
