"""`pattern` and `patternProperties`: the portable regular-expression dialect.

A pattern must mean the same in RE2 (the Go SDK and the host), Python ``re`` and ECMAScript
(``u`` flag). The dialect is the common core: literals, ``.``, ``^``, ``$``, ``|``, groups
``(...)`` and ``(?:...)``, the quantifiers ``* + ? {n} {n,} {n,m}`` (n, m <= 1000) and their
lazy forms, classes ``[...]``/``[^...]`` with ranges, and the escapes ``\\d \\D \\w \\W \\s \\S
\\b \\B \\t \\n \\r \\f \\v \\xHH``, ``\\p{..}``/``\\P{..}`` of a Unicode general category (``L``,
``Lu``, ``Letter``, ...) and a backslash before any ASCII punctuation. It keeps RE2's meaning
where the engines differ: ``\\d``, ``\\w``, ``\\s`` and ``\\b`` are ASCII (``\\s`` is
``[\\t\\n\\f\\r ]``), ``.`` is any character but ``\\n``, ``$`` is the end of the text only.
Anything else (backreferences, lookaround, named groups, inline flags, ``\\uHHHH``, ``\\x{..}``,
POSIX classes, Unicode scripts, a bare ``{``, ``}`` or ``]``) is refused when the schema is
compiled, with the pointer of the keyword.
"""

from __future__ import annotations

import re

from .._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

_SPACE = "\\t\\n\\f\\r "
_CLASS_BODY = {"d": "0-9", "w": "0-9A-Za-z_", "s": _SPACE}
_LONG = {
    "Letter": "L", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M",
    "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N",
    "Decimal_Number": "Nd", "Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P",
    "Symbol": "S", "Separator": "Z", "Space_Separator": "Zs", "Other": "C", "Control": "Cc",
}
_CATEGORIES: dict[str, str] = {}


class PatternError(ValueError):
    """A pattern outside the portable dialect, or not a regular expression at all."""


def compile_pattern(source: str) -> Callable[[str], bool]:
    """A function telling whether a string contains a match (patterns are not anchored)."""
    translated = translate(source)
    try:
        regex = re.compile(translated, re.ASCII)
    except re.error as exc:
        raise PatternError(f"invalid regular expression {source!r}: {exc}") from None
    search = regex.search
    return lambda text: search(text) is not None


def translate(source: str) -> str:
    """The pattern in Python ``re`` syntax with RE2's meaning, or PatternError."""
    out: list[str] = []
    i, n = 0, len(source)

    def fail(why: str) -> PatternError:
        return PatternError(f"invalid regular expression {source!r}: {why} (at offset {i}); "
                            "patterns must be portable across RE2, Python and ECMAScript")

    while i < n:
        ch = source[i]
        if ch == "\\":
            text, i = _escape(source, i, fail, in_class=False)
            out.append(text)
            continue
        if ch == "[":
            text, i = _klass(source, i, fail)
            out.append(text)
            continue
        if ch == ".":
            out.append("[^\\n]")
        elif ch == "$":
            out.append("\\Z")
        elif ch == "(":
            if source.startswith("(?", i):
                if not source.startswith("(?:", i):
                    raise fail("only (?: groups are portable")
                out.append("(?:")
                i += 3
                continue
            out.append("(")
        elif ch in "*+?":
            out.append(ch)
            if i + 1 < n and source[i + 1] == "?":
                out.append("?")
                i += 1
            if i + 1 < n and source[i + 1] in "*+?{":
                raise fail("a repetition of a repetition")
        elif ch == "{":
            m = re.compile(r"\{(\d+)(,(\d*))?\}").match(source, i)
            if m is None:
                raise fail("a literal { must be escaped")
            low = int(m.group(1))
            high = m.group(3)
            if low > 1000 or (high and int(high) > 1000):
                raise fail("repetition counts are at most 1000")
            if high and int(high) < low:
                raise fail("a repetition range is reversed")
            out.append(m.group(0))
            i = m.end()
            if i < n and source[i] == "?":
                out.append("?")
                i += 1
            if i < n and source[i] in "*+?{":
                raise fail("a repetition of a repetition")
            continue
        elif ch in "}]":
            raise fail(f"a literal {ch} must be escaped")
        else:
            out.append(ch)  # ^ | ) and literals keep their meaning
        i += 1
    return "".join(out)


def _escape(source: str, i: int, fail: Callable[[str], PatternError],
            in_class: bool) -> tuple[str, int]:
    if i + 1 >= len(source):
        raise fail("a trailing backslash")
    c = source[i + 1]
    if c in _CLASS_BODY:
        return (_CLASS_BODY[c] if in_class else f"[{_CLASS_BODY[c]}]"), i + 2
    if c in "DWS":
        if in_class:
            raise fail(f"\\{c} inside a class")
        return f"[^{_CLASS_BODY[c.lower()]}]", i + 2
    if c in "bB":
        if in_class:
            raise fail(f"\\{c} inside a class")
        return "\\" + c, i + 2
    if c in "tnrfv":
        return "\\" + c, i + 2
    if c == "x":
        hexa = source[i + 2:i + 4]
        if len(hexa) != 2 or any(h not in "0123456789abcdefABCDEF" for h in hexa):
            raise fail("\\x takes exactly two hex digits")
        return "\\x" + hexa, i + 4
    if c in "pP":
        if source.startswith("{", i + 2):
            end = source.find("}", i + 3)
            if end < 0:
                raise fail("an unclosed \\p{")
            name, after = source[i + 3:end], end + 1
        else:
            name, after = source[i + 2:i + 3], i + 3
        body = _category(_LONG.get(name, name), fail)
        if c == "P":
            if in_class:
                raise fail("\\P inside a class")
            return f"[^{body}]", after
        return (body if in_class else f"[{body}]"), after
    if c.isascii() and not c.isalnum():
        return re.escape(c) if c != "-" else "\\-", i + 2
    raise fail(f"the escape \\{c} is not portable")


def _klass(source: str, i: int, fail: Callable[[str], PatternError]) -> tuple[str, int]:
    out = ["["]
    i += 1
    if source.startswith("^", i):
        out.append("^")
        i += 1
    if source.startswith("]", i):
        raise fail("an empty class or a leading ] in a class")
    while True:
        if i >= len(source):
            raise fail("an unclosed class")
        ch = source[i]
        if ch == "]":
            out.append("]")
            return "".join(out), i + 1
        if ch == "\\":
            text, i = _escape(source, i, fail, in_class=True)
            out.append(text)
            continue
        if ch == "[" and source.startswith("[:", i):
            raise fail("POSIX classes are not portable")
        out.append("\\" + ch if ch in "[&~|" else ch)
        i += 1


def _category(name: str, fail: Callable[[str], PatternError]) -> str:
    """A class body (ranges) for a Unicode general category, built once per category."""
    if name in _CATEGORIES:
        return _CATEGORIES[name]
    import unicodedata  # only a pattern with \p{..} needs it

    known = {"L", "M", "N", "P", "S", "Z", "C"}
    if len(name) not in (1, 2) or not name.isalpha() or (
            len(name) == 1 and name not in known):
        raise fail(f"\\p{{{name}}} is not a Unicode general category")
    ranges: list[str] = []
    start = prev = -2
    for cp in range(0x110000):
        cat = unicodedata.category(chr(cp))
        hit = cat.startswith(name)
        if hit:
            if cp != prev + 1:
                if start >= 0:
                    ranges.append(_range(start, prev))
                start = cp
            prev = cp
    if start >= 0:
        ranges.append(_range(start, prev))
    if not ranges:
        raise fail(f"\\p{{{name}}} is not a Unicode general category")
    body = "".join(ranges)
    _CATEGORIES[name] = body
    return body


def _range(low: int, high: int) -> str:
    return f"\\U{low:08x}" if low == high else f"\\U{low:08x}-\\U{high:08x}"
