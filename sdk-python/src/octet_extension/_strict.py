"""Strict JSON decoding and the schema checker of the octet wire (same rules as Go's strictjson).

Hand-written: the generated specs (octet_extension._generated.specs) describe every schema
type and register themselves here; this module decodes (duplicate keys, lone surrogates,
NaN and nesting deeper than MAX_JSON_DEPTH refused) and interprets those specs, following the
same rules, in the same order, as the generated Go validators.
"""

from __future__ import annotations

import json
import re

from ._generated.limits import MAX_JSON_DEPTH

# typing.TYPE_CHECKING without importing typing (~3 ms of every extension's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

# The spec of every schema type by name, filled by the generated specs module (register):
# each is its JSON text until a check first reaches the type (_spec), then the decoded dict.
# Decoding all ~200 at import cost about 190 KiB of every extension's resident set, for the
# few dozen a start ever checks.
_SPECS: dict[str, Any] = {}


def register(specs: dict[str, Any]) -> None:
    """Add generated type specs (the generated specs module calls this once, on import)."""
    _SPECS.update(specs)


def _spec(type_name: str) -> dict[str, Any]:
    s = _SPECS[type_name]
    if type(s) is str:
        # Two threads may both decode a type: each stores an equal dict, either is kept.
        s = _SPECS[type_name] = json.loads(s)
    return s  # type: ignore[no-any-return]


def check(type_name: str, value: object) -> list[str]:
    """Check value (from parse_strict) against a registered schema type; return the violations."""
    errs: list[str] = []
    _check(_spec(type_name), value, "$", errs)
    return errs

MAX_SAFE_INTEGER: Final = 9007199254740991
# What json.loads makes of a number beyond float64 (it never makes NaN: NaN is refused as a
# constant); compared against rather than math.isfinite, so a start need not load math.
_INFINITIES: Final = (float("inf"), float("-inf"))


class StrictJSONError(ValueError):
    """The text is not acceptable JSON on the octet wire."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise StrictJSONError(f"duplicate key {k!r}")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not JSON")


# Arrays and objects are counted while scanning, before json.loads builds anything: strings
# are skipped whole (a bracket inside one does not nest), and a document with fewer brackets
# than the bound (every ordinary frame) skips the scan. Go and TypeScript count the same way.
# Source text, compiled by re on the first deep document (not at every start).
_NESTING_TOKENS: Final = rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]'
NESTING: Final = f"nesting deeper than {MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH)"


def nesting_offset(data: bytes) -> int:
    """Byte offset of the first array or object opened deeper than MAX_JSON_DEPTH; -1 if none."""
    if data.count(b"[") + data.count(b"{") <= MAX_JSON_DEPTH:
        return -1
    depth = 0
    for m in re.finditer(_NESTING_TOKENS, data):
        c = data[m.start()]
        if c == 0x5B or c == 0x7B:
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return m.start()
        elif c != 0x22:
            depth -= 1
    return -1


def _no_surrogates(v: Any) -> None:
    if isinstance(v, str):
        v.encode("utf-8")  # raises on a lone surrogate
    elif isinstance(v, float) and v in _INFINITIES:
        raise StrictJSONError("number beyond the range of a 64-bit float")
    elif isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 1023:
        try:
            float(v)  # rounds as Go's ParseFloat does; beyond float64 it overflows
        except OverflowError:
            raise StrictJSONError("number beyond the range of a 64-bit float") from None
    elif isinstance(v, dict):
        for k, x in v.items():
            k.encode("utf-8")
            _no_surrogates(x)
    elif isinstance(v, list):
        for x in v:
            _no_surrogates(x)


def parse_strict(text: str | bytes) -> Any:
    """Decode one JSON document: duplicate keys, NaN/Infinity, lone surrogates and nesting
    deeper than MAX_JSON_DEPTH refused."""
    try:
        data = text.encode("utf-8") if isinstance(text, str) else text
        at = nesting_offset(data)
        if at >= 0:
            raise StrictJSONError(f"{NESTING} at byte {at}")
        v = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
        _no_surrogates(v)
    except UnicodeError as e:
        raise StrictJSONError(f"lone UTF-16 surrogate or invalid UTF-8: {e}") from e
    except json.JSONDecodeError as e:
        raise StrictJSONError(str(e)) from e
    except ValueError as e:  # e.g. an integer of more digits than int() converts
        if isinstance(e, StrictJSONError):
            raise
        raise StrictJSONError(str(e)) from e
    return v


def _kind(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def _unique_key(v: object) -> object:
    # An object or array item cannot be hashed; it already fails the items' own check, and
    # its JSON (keys sorted) still tells equal items apart.
    if isinstance(v, (list, dict)):
        return ("composite", json.dumps(v, sort_keys=True))
    return (_kind(v), v)


def _check(s: dict[str, Any], v: object, p: str, errs: list[str]) -> None:
    if "ref" in s:
        _check(_spec(s["ref"]), v, p, errs)
        return
    if "oneof" in s:
        _check_union(s, v, p, errs)
        return
    kinds: list[str] = s["kinds"]
    k = _kind(v)
    if "const" in s and not kinds:
        c = s["const"]
        if _kind(c) != k or c != v:
            errs.append(f"{p}: want {c!r}")
        return
    if not kinds:
        return
    if k == "integer" and "integer" not in kinds and "number" in kinds:
        k = "number"
    if k == "integer" and isinstance(v, int) and abs(v) > MAX_SAFE_INTEGER:
        errs.append(f"{p}: integer outside +-(2^53-1)")
        return
    if k not in kinds:
        errs.append(f"{p}: want {' or '.join(kinds)}, got {_kind(v)}")
        return
    if "const" in s and v != s["const"]:
        errs.append(f"{p}: want {s['const']!r}")
    if isinstance(v, str):
        _check_str(s, v, p, errs)
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in s and v < s["minimum"]:
            errs.append(f"{p}: want at least {s['minimum']}")
        if "maximum" in s and v > s["maximum"]:
            errs.append(f"{p}: want at most {s['maximum']}")
    elif isinstance(v, list):
        if "minItems" in s and len(v) < s["minItems"]:
            errs.append(f"{p}: want at least {s['minItems']} items")
        if "maxItems" in s and len(v) > s["maxItems"]:
            errs.append(f"{p}: want at most {s['maxItems']} items")
        if s.get("unique") and len({_unique_key(x) for x in v}) != len(v):
            errs.append(f"{p}: items are not unique")
        for i, x in enumerate(v):
            _check(s["items"], x, f"{p}[{i}]", errs)
    elif isinstance(v, dict) and not s.get("open"):
        fields: list[list[Any]] = s["fields"]
        known = {f[0] for f in fields}
        for key in v:
            if key not in known:
                errs.append(f"{p}: unknown field {key!r}")
        for name, fs, required in fields:
            if name in v:
                _check(fs, v[name], f"{p}.{name}", errs)
            elif required:
                errs.append(f"{p}: missing required field {name!r}")


def _check_str(s: dict[str, Any], v: str, p: str, errs: list[str]) -> None:
    if "enum" in s and v not in s["enum"]:
        errs.append(f"{p}: want one of {', '.join(s['enum'])}")
    n = len(v)  # code points
    if "minLength" in s and n < s["minLength"]:
        errs.append(f"{p}: want at least {s['minLength']} characters")
    if "maxLength" in s and n > s["maxLength"]:
        errs.append(f"{p}: want at most {s['maxLength']} characters")
    if "minBytes" in s or "maxBytes" in s:
        nb = len(v.encode("utf-8"))
        lo, hi = s.get("minBytes"), s.get("maxBytes")
        if (lo is not None and nb < lo) or (hi is not None and nb > hi):
            want = f"{lo}..{hi}" if lo is not None and hi is not None else (
                f"at least {lo}" if lo is not None else f"at most {hi}")
            errs.append(f"{p}: want {want} UTF-8 bytes, got {nb}")
    if "pattern" in s and re.search(s["pattern"], v) is None:
        errs.append(f"{p}: does not match {s['pattern']}")


def _check_union(s: dict[str, Any], v: object, p: str, errs: list[str]) -> None:
    if not isinstance(v, dict):
        errs.append(f"{p}: want object, got {_kind(v)}")
        return
    names: list[str] = s["oneof"]
    if s["prop"]:
        d = v.get(s["prop"])
        for name, value in zip(names, s["values"], strict=True):
            if isinstance(d, str) and d == value:
                _check(_spec(name), v, p, errs)
                return
        errs.append(f"{p}: member {s['prop']!r} must be one of {', '.join(s['values'])}")
        return
    fallback = None
    for name, key in zip(names, s["keys"], strict=True):
        if not key:
            fallback = name
        elif key in v:
            _check(_spec(name), v, p, errs)
            return
    if fallback is None:
        errs.append(f"{p}: want one of the members {', '.join(k for k in s['keys'] if k)}")
    else:
        _check(_spec(fallback), v, p, errs)
