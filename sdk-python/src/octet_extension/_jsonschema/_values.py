"""JSON values as JSON Schema sees them: types, equality, and the fault contract's printing.

Instances are what ``json.loads`` (or the SDK's ``parse_strict``) produce: dict, list, str,
int, float, bool, None. ``bool`` is an ``int`` in Python but never a JSON number.
"""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Any


def json_type(value: Any) -> str:
    """The JSON type name the fault contract prints after "got" (every number is "number")."""
    kind = type(value)
    if kind is str:
        return "string"
    if kind is dict:
        return "object"
    if kind is list:
        return "array"
    if kind is bool:
        return "boolean"
    if value is None:
        return "null"
    if kind is int or kind is float:
        return "number"
    return kind.__name__


def is_number(value: Any) -> bool:
    kind = type(value)
    return kind is int or kind is float


def equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but true != 1; objects by members, arrays by position."""
    ka, kb = type(a), type(b)
    if ka is bool or kb is bool:
        return ka is kb and a == b
    if ka is dict:
        return kb is dict and len(a) == len(b) and all(
            k in b and equal(v, b[k]) for k, v in a.items())
    if ka is list:
        return kb is list and len(a) == len(b) and all(
            equal(x, y) for x, y in zip(a, b, strict=True))
    if (ka is int or ka is float) and (kb is int or kb is float):
        return bool(a == b)
    return ka is kb and a == b


def canonical(value: Any) -> Any:
    """A hashable key equal for JSON-equal values (hash(1) == hash(1.0) in Python)."""
    kind = type(value)
    if kind is bool:
        return ("b", value)
    if kind is dict:
        return ("o", frozenset((k, canonical(v)) for k, v in value.items()))
    if kind is list:
        return ("a", tuple(canonical(v) for v in value))
    if kind is int or kind is float:
        return ("n", value)
    return ("s", value) if kind is str else ("z", value)


def first_duplicate(items: list[Any]) -> tuple[int, int] | None:
    """(i, j): j the smallest index equal to an earlier item, i the smallest such earlier."""
    seen: dict[Any, int] = {}
    for j, item in enumerate(items):
        key = canonical(item)
        i = seen.get(key)
        if i is not None:
            return i, j
        seen[key] = j
    return None


def exact(number: int | float) -> Fraction:
    """A number's decimal value: a float is taken as the shortest literal that reads back as
    it (so 0.1 is 1/10, as the JSON text said, not the binary approximation)."""
    from fractions import Fraction  # imported on first use: it costs every start otherwise

    if type(number) is int:
        return Fraction(number)
    return Fraction(repr(number))


def is_multiple(value: int | float, divisor: int | float) -> bool:
    if type(value) is int and type(divisor) is int:
        return value % divisor == 0
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return False
    return (exact(value) / exact(divisor)).denominator == 1


_EXACT = 2**53


def es_number(number: int | float) -> str:
    """ECMAScript's Number.prototype.toString of the float64 nearest to number; an int beyond
    ±2^53 (where floats skip integers) as its exact digits, as the Go and TypeScript SDKs print
    an integer written beyond 2^53."""
    if type(number) is int and not -_EXACT <= number <= _EXACT:
        return str(number)
    try:
        f = float(number)
    except OverflowError:  # an int beyond float64: its digits
        return str(number)
    if f == 0:
        return "0"
    sign = "-" if f < 0 else ""
    digits, n = _digits(repr(abs(f)))  # repr: the shortest round-trip digits, as ECMAScript
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    m = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{m}e{'+' if e >= 0 else '-'}{abs(e)}"


def _digits(text: str) -> tuple[str, int]:
    """Significant digits of a positive float's repr and the decimal point's position
    (value = 0.DIGITS * 10**position)."""
    mant, _, exp = text.partition("e")
    whole, _, frac = mant.partition(".")
    point = len(whole) + (int(exp) if exp else 0)
    digits = (whole + frac).lstrip("0")
    point -= len(whole + frac) - len((whole + frac).lstrip("0"))
    digits = digits.rstrip("0") or "0"
    return digits, point


def fault_json(value: Any) -> str:
    """Compact JSON as the fault contract prints values: sorted keys, only '"', '\\' and
    control characters escaped, numbers as es_number."""
    out: list[str] = []
    _write(value, out)
    return "".join(out)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b",
            "\f": "\\f"}


def json_string(text: str) -> str:
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    parts = ['"']
    for ch in text:
        esc = _ESCAPES.get(ch)
        if esc is not None:
            parts.append(esc)
        elif ch < " ":
            parts.append(f"\\u{ord(ch):04x}")
        else:
            parts.append(ch)
    parts.append('"')
    return "".join(parts)


def _write(value: Any, out: list[str]) -> None:
    kind = type(value)
    if value is None:
        out.append("null")
    elif kind is bool:
        out.append("true" if value else "false")
    elif kind is str:
        out.append(json_string(value))
    elif kind is int or kind is float:
        out.append(es_number(value))
    elif kind is list:
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    elif kind is dict:
        out.append("{")
        for i, key in enumerate(sorted(value)):
            if i:
                out.append(",")
            out.append(json_string(key))
            out.append(":")
            _write(value[key], out)
        out.append("}")
    else:
        out.append(json_string(str(value)))


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def pointer(tokens: tuple[str, ...]) -> str:
    return "".join("/" + escape_token(t) for t in tokens)
