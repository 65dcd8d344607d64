"""type, const, enum, and the string and number keywords."""

from __future__ import annotations

import operator

from .._typecheck import TYPE_CHECKING
from ._faults import TYPE_ORDER, fault
from ._values import (
    equal,
    es_number,
    fault_json,
    is_multiple,
    is_number,
    json_string,
    json_type,
)

if TYPE_CHECKING:
    from typing import Any

    from ._context import Context
    from ._node import Co, Ev, Pre

_PY = {"null": (type(None),), "boolean": (bool,), "object": (dict,), "array": (list,),
       "string": (str,), "number": (int, float), "integer": (int,)}


def pre_checks(s: dict[str, Any], c: Context) -> list[Pre]:
    out: list[Pre] = []
    if "type" in s:
        out.append(_type(s["type"], c))
    if "const" in s:
        want = s["const"]
        const_text = "want constant " + fault_json(want)
        if type(want) is str:
            out.append(("const", lambda v: type(v) is str and v == want, lambda v: const_text))
        else:
            out.append(("const", lambda v: equal(v, want), lambda v: const_text))
    if "enum" in s:
        values = s["enum"]
        c.expect(type(values) is list, "enum", "must be an array")
        enum_text = "want one of " + fault_json(values)
        if values and all(type(x) is str for x in values):
            strings = frozenset(values)
            out.append(("enum", lambda v: type(v) is str and v in strings, lambda v: enum_text))
        else:
            out.append(("enum", lambda v: any(equal(v, x) for x in values),
                        lambda v: enum_text))
    return out


def _type(spec: Any, c: Context) -> Pre:
    names = [spec] if type(spec) is str else spec
    c.expect(type(names) is list and bool(names) and all(n in _PY for n in names)
             and len(set(names)) == len(names), "type",
             "must be a type name or a non-empty array of distinct type names")
    allowed = frozenset(t for n in names for t in _PY[n])
    fractions = "integer" in names and "number" not in names
    want = " or ".join(n for n in TYPE_ORDER if n in names)

    if fractions:  # draft 2020-12: 1.0 is an integer
        def test(v: Any) -> bool:
            kind = type(v)
            return kind in allowed or (kind is float and v.is_integer())
    elif len(allowed) == 1:
        only = next(iter(allowed))

        def test(v: Any) -> bool:
            return type(v) is only
    else:
        def test(v: Any) -> bool:
            return type(v) in allowed

    return ("type", test, lambda v: f"want type {want}, got {json_type(v)}")


def string_checks(s: dict[str, Any], c: Context) -> list[tuple[Any, Ev, Co]]:
    out: list[tuple[Any, Ev, Co]] = []
    low, high = c.count(s, "minLength"), c.count(s, "maxLength")
    if low is not None or high is not None:
        lo = low or 0
        hi = high if high is not None else -1

        def ev_len(v: Any, scope: Any, ann: Any) -> bool:
            n = len(v)
            return n >= lo and (hi < 0 or n <= hi)

        def co_len(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Any) -> None:
            n = len(v)
            if n < lo:
                out.append(fault(ptr, "minLength", f"want at least {lo} characters, got {n}"))
            if 0 <= hi < n:
                out.append(fault(ptr, "maxLength", f"want at most {hi} characters, got {n}"))

        out.append((str, ev_len, co_len))
    if "pattern" in s:
        source = s["pattern"]
        c.expect(type(source) is str, "pattern", "must be a string")
        matches = c.pattern(source, "pattern")
        reason = "want a string matching " + json_string(source)

        def ev_pat(v: Any, scope: Any, ann: Any) -> bool:
            return matches(v)

        def co_pat(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Any) -> None:
            if not matches(v):
                out.append(fault(ptr, "pattern", reason))

        out.append((str, ev_pat, co_pat))
    return out


_BOUNDS = (
    ("minimum", "want at least", operator.ge),
    ("maximum", "want at most", operator.le),
    ("exclusiveMinimum", "want more than", operator.gt),
    ("exclusiveMaximum", "want less than", operator.lt),
)


def number_checks(s: dict[str, Any], c: Context) -> list[tuple[Any, Ev, Co]]:
    bounds = []
    for keyword, words, ok in _BOUNDS:
        if keyword in s:
            bound = s[keyword]
            c.expect(is_number(bound), keyword, "must be a number")
            bounds.append((keyword, f"{words} {es_number(bound)}", ok, bound))
    divisor: Any = s.get("multipleOf")
    if "multipleOf" in s:
        c.expect(is_number(divisor) and divisor > 0, "multipleOf", "must be a number above 0")
    if not bounds and divisor is None:
        return []

    def ev(v: Any, scope: Any, ann: Any) -> bool:
        for _keyword, _words, ok, bound in bounds:
            if not ok(v, bound):
                return False
        return divisor is None or is_multiple(v, divisor)

    def co(v: Any, ptr: tuple[str, ...], scope: Any, out: list[Any], ann: Any) -> None:
        got = es_number(v)
        for keyword, words, ok, bound in bounds:
            if not ok(v, bound):
                out.append(fault(ptr, keyword, f"{words}, got {got}"))
        if divisor is not None and not is_multiple(v, divisor):
            out.append(fault(ptr, "multipleOf",
                             f"want a multiple of {es_number(divisor)}, got {got}"))

    return [("number", ev, co)]
