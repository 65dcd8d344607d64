"""JSON frames on the wire: compact encoding, strict decoding, id rules (wire.md §1)."""

from __future__ import annotations

import json
import json.scanner
import re

from . import _limits as L
from ._checks import is_int
from ._generated._models import NESTING, nesting_offset
from ._generated.limits import MAX_JSON_DEPTH
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, TypeGuard

dumps = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
if _c_make_encoder is not None:  # pragma: no branch - CPython has it
    # The C encoder called directly skips JSONEncoder.encode/iterencode's Python frames on
    # every frame written (the hot path). Same output: compact separators, no NaN.
    def _raise_type(o: Any) -> Any:
        raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    _c_encode = _c_make_encoder(
        None, _raise_type, json.encoder.encode_basestring_ascii, None, ":", ",", False, False,
        False)

    def dumps(o: Any) -> str:
        return "".join(_c_encode(o, 0))


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A repeated key is a parse error on this wire (schema/errors: parse_error); json.loads
    # would silently keep the last one. The hook costs ~0.1 us per frame.
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}")
            seen.add(key)
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_FLOAT_MAX = 1.7976931348623157e308
# float() of JSON number text is finite or overflows to an infinity (it is never NaN); compared
# against these rather than math.isfinite so a start need not load the math extension module.
_INFINITIES = (float("inf"), float("-inf"))


def _float(text: str) -> float:
    value = float(text)
    if value in _INFINITIES:
        raise ValueError(f"number {text[:32]} is beyond the range of a 64-bit float")
    return value


# An integer beyond float64 has at least 309 digits; only then is the tree walked for it
# (a parse_int hook would cost a Python call per integer on every frame).
_LONG_INT_DIGITS = 309
# The search maps every digit to b"0" and every other byte to b" ", then looks for the run:
# the same answer as the regex [0-9]{309}, without compiling one at every start (the
# initialize request is long enough to be searched).
_DIGITS_TO_ZERO = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_RUN = b"0" * _LONG_INT_DIGITS

_decoder = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant,
                            parse_float=_float)
_decode = _decoder.decode
# The decoder's C scanner called directly skips decode/raw_decode's Python frames (two calls
# and a regex match per frame). It parses one value starting at index 0; a frame it does not
# consume whole (leading or trailing whitespace, garbage) goes through decode() for the
# standard result or error. A malformed value raises the same error either way.
_c_make_scanner = getattr(json.scanner, "c_make_scanner", None)
_scan = _c_make_scanner(_decoder) if _c_make_scanner is not None else None


def loads(line: bytes) -> Any:
    """One frame: duplicate keys, NaN/Infinity, numbers beyond float64, nesting deeper than
    MAX_JSON_DEPTH, invalid UTF-8 and lone surrogates raise ValueError."""
    # Counted before json.loads builds anything (one C count when the frame has fewer
    # brackets than the bound), with the byte offset Go and TypeScript report too.
    if line.count(b"[") + line.count(b"{") > MAX_JSON_DEPTH:  # nesting_offset's own pre-check
        at = nesting_offset(line)
        if at >= 0:
            raise ValueError(f"{NESTING} at byte {at}")
    text = line.decode("utf-8")
    if _scan is None:  # pragma: no cover - CPython has the C scanner
        value = _decode(text)
    else:
        try:
            value, end = _scan(text, 0)
        except StopIteration:
            end = -1
        if end != len(text):
            value = _decode(text)
    # The walks are rare: only a \uD800-\uDFFF escape can smuggle a lone surrogate into a
    # str. Byte searches keep the walks off the hot path, and a frame too short to hold
    # such an integer skips that search.
    if b"\\u" in line and (b"\\ud" in line or b"\\uD" in line):
        _no_lone_surrogates(value)
    if len(line) >= _LONG_INT_DIGITS and _LONG_RUN in line.translate(_DIGITS_TO_ZERO):
        _no_huge_ints(value)
    return value


def lenient(line: bytes) -> tuple[dict[str, Any], bool] | None:
    """The frame decoded without the rules JSON syntax does not state (duplicate keys, lone
    surrogates, number range, depth), and whether its envelope repeats a key; None when it
    is not a JSON object at all. After ``loads`` refused a frame, this tells a request that
    can still be answered (-32602 or -32600) from a stream that has to close."""
    repeats: list[bool] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        repeats.append(len(obj) != len(items))  # the outermost object is decoded last
        return obj

    if nesting_offset(line) >= 0:
        return _envelope_only(line)
    try:
        value = json.loads(line.decode("utf-8"), object_pairs_hook=pairs,
                           parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    if type(value) is not dict:
        return None
    return value, repeats[-1]


# Tokens of a frame's outermost object: strings (skipped whole), brackets, ':' and ','.
# Source text, compiled by re on the first frame too deep to decode (not at every start).
_ENVELOPE_TOKENS = rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}:,]'


def _envelope_only(line: bytes) -> tuple[dict[str, Any], bool] | None:
    """The outermost object's scalar members of a frame nested too deep to decode (their
    containers are left out), so its request can still be answered -32602 as in Go and
    TypeScript; None when it is not an object."""
    if not line.lstrip().startswith(b"{"):
        return None
    out: dict[str, Any] = {}
    repeats = False
    depth, key, start = 0, None, -1
    for m in re.finditer(_ENVELOPE_TOKENS, line):
        tok = line[m.start()]
        if tok == 0x7B or tok == 0x5B:
            depth += 1
        elif tok == 0x7D or tok == 0x5D:
            depth -= 1
        if depth > 1:
            continue
        if tok == 0x22 and key is None and start < 0:
            key = m.group()
        elif tok == 0x3A and depth == 1:
            start = m.end()
        elif (tok == 0x2C and depth == 1) or (tok == 0x7D and depth == 0):
            if key is not None and start >= 0:
                try:
                    name = json.loads(key)
                    repeats = repeats or name in out
                    raw = line[start:m.start()].strip()
                    if not raw.startswith((b"{", b"[")):
                        out[name] = json.loads(raw)
                except ValueError:
                    return None
            key, start = None, -1
    return out, repeats


def _no_huge_ints(value: Any) -> None:
    if isinstance(value, int) and not -_FLOAT_MAX <= value <= _FLOAT_MAX:
        try:
            float(value)  # rounds as Go and JSON.parse do: just past the max is the max
        except OverflowError:
            raise ValueError(
                f"number {str(value)[:32]}... is beyond the range of a 64-bit float") from None
    if isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            _no_huge_ints(item)


def _no_lone_surrogates(value: Any) -> None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("lone UTF-16 surrogate in a string") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _no_lone_surrogates(key)
            _no_lone_surrogates(item)
    elif isinstance(value, list):
        for item in value:
            _no_lone_surrogates(item)


def valid_id(value: Any) -> TypeGuard[int | str]:
    """An id is an integer 0..2^53-1 or a string of 1..256 UTF-8 bytes."""
    if type(value) is int:  # the common case first
        return 0 <= value <= MAX_ID_INT
    if isinstance(value, str):
        return 0 < len(value.encode()) <= L.MAX_ID_BYTES
    return is_int(value) and 0 <= value <= MAX_ID_INT


MAX_ID_INT = 2**53 - 1
