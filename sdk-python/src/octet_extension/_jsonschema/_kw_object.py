"""Object keywords: properties, patternProperties, additionalProperties, propertyNames,
required, dependentRequired, min/maxProperties, dependentSchemas, unevaluatedProperties."""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING
from ._faults import fault
from ._node import judge
from ._values import json_string

if TYPE_CHECKING:
    from typing import Any

    from ._context import Context
    from ._node import Ann, Co, Ev, Node


def object_checks(s: dict[str, Any], c: Context) -> list[tuple[Any, Ev, Co]]:
    out: list[tuple[Any, Ev, Co]] = []
    if c.validation:
        out += _counts(s, c)
    members = _members(s, c)
    if members is not None:
        out.append(members)
    if "propertyNames" in s:
        out.append(_property_names(c.sub(s["propertyNames"], "propertyNames")))
    if "dependentSchemas" in s:
        deps = s["dependentSchemas"]
        c.expect(type(deps) is dict, "dependentSchemas", "must be an object of schemas")
        out.append(_dependent_schemas({k: c.sub(v, "dependentSchemas", k)
                                       for k, v in deps.items()}))
    return out


def _counts(s: dict[str, Any], c: Context) -> list[tuple[Any, Ev, Co]]:
    out: list[tuple[Any, Ev, Co]] = []
    required = s.get("required", [])
    c.expect(type(required) is list and all(type(r) is str for r in required), "required",
             "must be an array of strings")
    dependent = s.get("dependentRequired", {})
    c.expect(type(dependent) is dict and all(
        type(v) is list and all(type(x) is str for x in v) for v in dependent.values()),
        "dependentRequired", "must be an object of string arrays")
    low, high = c.count(s, "minProperties"), c.count(s, "maxProperties")
    if required:
        names = tuple(required)

        def ev_req(v: dict[str, Any], scope: Any, ann: Any) -> bool:
            return all(name in v for name in names)

        def co_req(v: dict[str, Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
                   ann: Any) -> None:
            for name in names:
                if name not in v:
                    out.append(fault(ptr, "required",
                                     "missing required property " + json_string(name)))

        out.append((dict, ev_req, co_req))
    if dependent:
        pairs = tuple((k, tuple(v)) for k, v in dependent.items())

        def ev_dep(v: dict[str, Any], scope: Any, ann: Any) -> bool:
            return all(all(n in v for n in need) for key, need in pairs if key in v)

        def co_dep(v: dict[str, Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
                   ann: Any) -> None:
            for key, need in pairs:
                if key in v:
                    for name in need:
                        if name not in v:
                            out.append(fault(ptr, "dependentRequired",
                                             f"missing property {json_string(name)}, "
                                             f"required by {json_string(key)}"))

        out.append((dict, ev_dep, co_dep))
    if low is not None or high is not None:
        lo, hi = low or 0, high if high is not None else -1

        def ev_n(v: dict[str, Any], scope: Any, ann: Any) -> bool:
            return len(v) >= lo and (hi < 0 or len(v) <= hi)

        def co_n(v: dict[str, Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
                 ann: Any) -> None:
            if len(v) < lo:
                out.append(fault(ptr, "minProperties",
                                 f"want at least {lo} properties, got {len(v)}"))
            if 0 <= hi < len(v):
                out.append(fault(ptr, "maxProperties",
                                 f"want at most {hi} properties, got {len(v)}"))

        out.append((dict, ev_n, co_n))
    return out


def _members(s: dict[str, Any], c: Context) -> tuple[Any, Ev, Co] | None:
    """properties, patternProperties and additionalProperties, in one pass over the object."""
    props_raw = s.get("properties", {})
    c.expect(type(props_raw) is dict, "properties", "must be an object of schemas")
    pats_raw = s.get("patternProperties", {})
    c.expect(type(pats_raw) is dict, "patternProperties", "must be an object of schemas")
    if not props_raw and not pats_raw and "additionalProperties" not in s:
        return None
    props: dict[str, Node] = {k: c.sub(v, "properties", k) for k, v in props_raw.items()}
    pats = tuple((c.pattern(k, "patternProperties", k), c.sub(v, "patternProperties", k))
                 for k, v in pats_raw.items())
    extra = c.sub(s["additionalProperties"], "additionalProperties") \
        if "additionalProperties" in s else None
    closed = extra is not None and extra.is_false

    if not pats and extra is None:
        checks = tuple(props.items())

        def ev_props(v: dict[str, Any], scope: Any, ann: Ann | None) -> bool:
            for name, node in checks:
                if name in v:
                    if node.ev(v[name], scope, False) is None:
                        return False
                    if ann is not None:
                        ann.props.add(name)
            return True
        ev = ev_props
    else:
        def ev_all(v: dict[str, Any], scope: Any, ann: Ann | None) -> bool:
            for name, item in v.items():
                node = props.get(name)
                matched = node is not None
                if matched and node.ev(item, scope, False) is None:  # type: ignore[union-attr]
                    return False
                for matches, sub in pats:
                    if matches(name):
                        matched = True
                        if sub.ev(item, scope, False) is None:
                            return False
                if not matched and extra is not None:
                    if closed or extra.ev(item, scope, False) is None:
                        return False
                    matched = True
                if matched and ann is not None:
                    ann.props.add(name)
            return True
        ev = ev_all

    def co(v: dict[str, Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
           ann: Ann) -> None:
        # Evaluated whatever the verdict, as the Go oracle counts it.
        for name, item in v.items():
            node = props.get(name)
            matched = node is not None
            if node is not None and node.ev(item, scope, False) is None:
                node.co(item, (*ptr, name), scope, out)
            for matches, sub in pats:
                if matches(name):
                    matched = True
                    if sub.ev(item, scope, False) is None:
                        sub.co(item, (*ptr, name), scope, out)
            if not matched and extra is not None:
                matched = True
                if closed:
                    out.append(fault(ptr, "additionalProperties",
                                     "unexpected property " + json_string(name)))
                elif extra.ev(item, scope, False) is None:
                    extra.co(item, (*ptr, name), scope, out)
            if matched:
                ann.props.add(name)

    return (dict, ev, co)


def _property_names(names: Node) -> tuple[Any, Ev, Co]:
    def ev(v: dict[str, Any], scope: Any, ann: Any) -> bool:
        return all(names.ev(k, scope, False) is not None for k in v)

    def co(v: dict[str, Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
           ann: Any) -> None:
        for k in v:
            if names.ev(k, scope, False) is None:
                out.append(fault(ptr, "propertyNames", "invalid property name " + json_string(k)))

    return (dict, ev, co)


def _dependent_schemas(deps: dict[str, Node]) -> tuple[Any, Ev, Co]:
    pairs = tuple(deps.items())

    def ev(v: dict[str, Any], scope: Any, ann: Ann | None) -> bool:
        for key, node in pairs:
            if key in v:
                result = node.ev(v, scope, ann is not None)
                if result is None:
                    return False
                if ann is not None:
                    ann.merge(result)
        return True

    def co(v: dict[str, Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
           ann: Ann) -> None:
        for key, node in pairs:
            if key in v:
                judge(node, v, ptr, scope, out, ann)

    return (dict, ev, co)


def unevaluated_properties(node: Node) -> tuple[Any, Ev, Co]:
    closed = node.is_false

    def ev(v: dict[str, Any], scope: Any, ann: Ann | None) -> bool:
        assert ann is not None
        for name, item in v.items():
            if name not in ann.props:
                if closed or node.ev(item, scope, False) is None:
                    return False
                ann.props.add(name)
        return True

    def co(v: dict[str, Any], ptr: tuple[str, ...], scope: Any, out: list[Any],
           ann: Ann) -> None:
        for name, item in v.items():
            if name not in ann.props:
                if closed:
                    out.append(fault(ptr, "unevaluatedProperties",
                                     "unexpected property " + json_string(name)))
                elif node.ev(item, scope, False) is None:
                    node.co(item, (*ptr, name), scope, out)

    return (dict, ev, co)
