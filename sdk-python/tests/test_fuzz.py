"""Property-based fuzzing (hypothesis) of framing, strict JSON decoding and the generated
checkers. Each property compares with a reference: a model of the framing contract, the
stdlib json module, the verdicts of schema/vectors. OCTET_FUZZ_EXAMPLES sets the examples
per property (a few hundred in the suite; `go run mage.go fuzz` runs them at length).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from octet_extension import _codec
from octet_extension._generated import _models
from octet_extension._transport import LineReader, PartialFrameError

_EXAMPLES = int(os.environ.get("OCTET_FUZZ_EXAMPLES", "150"))
# Derandomized in the suite (the same examples every run); a long run explores afresh.
settings.register_profile(
    "octet", max_examples=_EXAMPLES, deadline=None, database=None,
    derandomize="OCTET_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("octet")

VECTORS = Path(__file__).resolve().parents[2] / "schema" / "vectors"
MAX_DEPTH = _models.MAX_JSON_DEPTH  # levels of arrays and objects; the outermost is 1


# -- framing ------------------------------------------------------------------------------

def _read_all(data: bytes, chunks: list[int], limit: int) -> list[bytes | str]:
    """Every line LineReader returns, then "None" (clean end) or "Overflow"."""
    r, w = os.pipe()

    def feed() -> None:
        rest = data
        i = 0
        while rest:
            n = chunks[i % len(chunks)] if chunks else len(rest)
            os.write(w, rest[:n])
            rest, i = rest[n:], i + 1
        os.close(w)

    t = threading.Thread(target=feed)
    t.start()
    reader = LineReader(r, limit)
    out: list[bytes | str] = []
    try:
        while True:
            try:
                line = reader.readline()
            except OverflowError:
                out.append("Overflow")
                break
            except PartialFrameError:
                out.append("Partial")
                break
            if line is None:
                out.append("None")
                break
            out.append(line)
    finally:
        # Drain so the writer never blocks on a full pipe after an overflow.
        while os.read(r, 1 << 16):
            pass
        t.join()
        os.close(r)
    return out


def _model(data: bytes, limit: int) -> list[bytes | str]:
    """The contract: whole lines in order; one over the limit ends reading; bytes after the
    last newline are a partial frame, never a line (as in Go and TypeScript, wire.md §1)."""
    out: list[bytes | str] = []
    parts = data.split(b"\n")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if len(part) > limit:
            out.append("Overflow")
            return out
        if last:
            out.append("Partial" if part else "None")
            return out
        out.append(part)
    return out


_long_line = st.builds(lambda n: b"x" * n, st.integers(0, 70000))
_lines = st.lists(st.binary(max_size=40) | st.just(b"{}") | _long_line, max_size=6)


@given(lines=_lines, trailing=st.booleans(), limit=st.integers(0, 70000),
       chunks=st.lists(st.integers(1, 70000), max_size=4))
@example(lines=[b"a" * 65537], trailing=True, limit=65537, chunks=[65536])
def test_line_reader_matches_the_framing_model(lines: list[bytes], trailing: bool, limit: int,
                                               chunks: list[int]) -> None:
    data = b"\n".join(line.replace(b"\n", b" ") for line in lines) + (b"\n" if trailing else b"")
    got = _read_all(data, chunks, limit)
    assert got == _model(data, limit)
    assert all(isinstance(x, str) or len(x) <= limit for x in got)


# -- strict JSON ----------------------------------------------------------------------------

_scalars = (st.none() | st.booleans() | st.integers(-(2**60), 2**60)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))
_json = st.recursive(_scalars, lambda kids: st.lists(kids, max_size=4)
                     | st.dictionaries(st.text(max_size=6), kids, max_size=4), max_leaves=20)

# Texts built from JSON's own tokens and the strict rules' edge cases, mixed at random.
_tokens = st.sampled_from([
    "{", "}", "[", "]", ",", ":", '"a"', '"a"', "1", "-0", "1.0", "1e400", "1" * 310, "true",
    "null", '"\\ud800"', '"\\udc00"', '"\\ud83d\\ude00"', '"\\u00e9"', " ", "\t", "NaN",
    '"\x00"', "\ufeff", '"é"', "[" * 129, "]" * 129, '{"a":1,"a":2}', "9" * 5000,
])
_texts = st.lists(_tokens, max_size=12).map("".join) | st.text(max_size=30)


def _refusal_reason(text: str) -> str:
    """A strict rule the stdlib-valid text breaks (found independently), or ''."""
    dup = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({k for k, _ in items}) != len(items):
            dup.append(True)
        return dict(items)

    try:
        v = json.loads(text, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return "stdlib refuses it too"
    if dup:
        return "duplicate key"

    def walk(x: Any, depth: int) -> str:
        if isinstance(x, dict | list) and depth >= MAX_DEPTH:
            return "too deep"  # a container at level depth + 1, past MAX_JSON_DEPTH
        if isinstance(x, str):
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                return "lone surrogate"
        if isinstance(x, float) and x in (float("inf"), float("-inf")):
            return "beyond float64"
        if isinstance(x, int) and not isinstance(x, bool):
            try:
                float(x)
            except OverflowError:
                return "beyond float64"
        if x != x:
            return "NaN"
        items: Any = []
        if isinstance(x, dict):
            items = list(x.items())
        elif isinstance(x, list):
            items = enumerate(x)
        for k, y in items:
            why = walk(k, depth) if isinstance(k, str) else ""
            why = why or walk(y, depth + 1)
            if why:
                return why
        return ""

    return walk(v, 0)


@given(value=_json, ascii_only=st.booleans())
def test_parse_strict_decodes_what_json_dumps_writes(value: Any, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert _models.parse_strict(text) == json.loads(text)
    assert _codec.loads(text.encode("utf-8")) == json.loads(text)


@given(text=_texts)
@example(text="9" * 5000)
@example(text="1" + "0" * 400)
@example(text="[" * 129 + "]" * 129)
def test_parse_strict_accepts_exactly_stdlib_json_minus_the_strict_rules(text: str) -> None:
    try:
        got = _models.parse_strict(text)
    except _models.StrictJSONError:
        assert _refusal_reason(text) != "", f"refused {text!r} that breaks no strict rule"
        return
    # Anything but StrictJSONError propagates and fails the test: callers catch only that.
    assert _refusal_reason(text) == ""
    assert got == json.loads(text)


@given(text=_texts)
@example(text="[" * 129 + "]" * 129)
@example(text=str((2**53 - 1) * 2**971 + 2**970 - 1))
def test_wire_frame_decoder_agrees_with_parse_strict(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    try:
        strict: Any = ("ok", _models.parse_strict(data.decode("utf-8")))
    except (_models.StrictJSONError, UnicodeDecodeError):
        strict = ("refused",)
    try:
        frame: Any = ("ok", _codec.loads(data))
    except ValueError:  # the frame decoder's documented refusal (UnicodeDecodeError included)
        frame = ("refused",)
    assert frame == strict


# -- generated checkers -----------------------------------------------------------------------

def _vectors() -> list[tuple[str, bool, bytes]]:
    return [(f.parent.parent.name, f.parent.name == "valid", f.read_bytes())
            for f in sorted(VECTORS.glob("*/*/*.json"))]


_VECTORS = _vectors()
_TYPES = sorted({t for t, _, _ in _VECTORS})


@given(type_name=st.sampled_from(_TYPES), value=_json)
def test_checkers_never_raise_and_name_a_path(type_name: str, value: Any) -> None:
    errs = _models.validate(type_name, value)
    assert errs == _models.validate(type_name, value)  # deterministic
    assert all(isinstance(e, str) and e.startswith("$") for e in errs)


@given(vector=st.sampled_from([v for v in _VECTORS if v[1]]), data=st.data())
def test_a_valid_vector_with_one_value_replaced_is_judged_without_crashing(
        vector: tuple[str, bool, bytes], data: st.DataObject) -> None:
    type_name, _, raw = vector
    doc = _models.parse_strict(raw.decode("utf-8"))
    assert _models.validate(type_name, doc) == []
    if isinstance(doc, dict) and doc:
        key = data.draw(st.sampled_from(sorted(doc)))
        doc[key] = data.draw(_json)
        errs = _models.validate(type_name, doc)
        # Any refusal of the mutated document is about the replaced member.
        assert all(e.startswith(f"$.{key}") or e.startswith("$:") for e in errs), errs
    elif isinstance(doc, list):
        doc.append(data.draw(_json))
        _models.validate(type_name, doc)


@given(vector=st.sampled_from(_VECTORS), spaces=st.sampled_from(["", " ", "\n", "\t \r\n"]))
def test_vector_verdicts_survive_reformatting(vector: tuple[str, bool, bytes], spaces: str) -> None:
    type_name, valid, raw = vector
    try:
        doc = _models.parse_strict(raw.decode("utf-8"))
    except (_models.StrictJSONError, UnicodeDecodeError):
        assert not valid
        return
    text = json.dumps(doc, ensure_ascii=False, indent=spaces and 1).replace("\n", "\n" + spaces)
    # 1.0 and 1 are told apart lexically in Go and TypeScript; json.dumps keeps float as 1.0.
    assert (_models.validate(type_name, _models.parse_strict(text)) == []) == valid
