"""Every vector in schema/vectors gets its expected verdict from the generated Python checker."""

from __future__ import annotations

from pathlib import Path

from octet_extension._generated import _models

VECTORS = Path(__file__).resolve().parents[2] / "schema" / "vectors"


def _verdict(type_name: str, raw: bytes) -> tuple[bool, str]:
    try:
        doc = _models.parse_strict(raw.decode("utf-8"))
    except (_models.StrictJSONError, UnicodeDecodeError) as e:
        return False, f"decode: {e}"
    errs = _models.validate(type_name, doc)
    return not errs, "; ".join(errs)


def test_vectors_agree_with_the_oracle() -> None:
    files = sorted(VECTORS.glob("*/*/*.json"))
    assert len(files) > 1000, "schema/vectors not found"
    wrong = []
    for f in files:
        expect = f.parent.name == "valid"
        got, why = _verdict(f.parent.parent.name, f.read_bytes())
        if got != expect:
            wrong.append(f"{f.relative_to(VECTORS)}: got valid={got} ({why})")
    assert not wrong, "\n".join(wrong)


def test_every_type_has_vectors() -> None:
    dirs = {p.name for p in VECTORS.iterdir()}
    missing = [t for t in _models.type_names() if t not in dirs]
    assert not missing


def test_duplicate_keys_refused() -> None:
    try:
        _models.parse_strict('{"a": 1, "a": 2}')
    except _models.StrictJSONError as e:
        assert "duplicate key" in str(e)
    else:
        raise AssertionError("duplicate key accepted")


def test_bool_is_not_an_integer() -> None:
    assert _models.validate("RequestID", True)
    assert not _models.validate("RequestID", 1)


def test_typed_models_and_per_type_validators() -> None:
    params: _models.ToolCallParams = {"name": "echo", "arguments": {}}
    assert _models.validate_tool_call_params(params) == []
    assert _models.validate_tool_call_params({"name": "echo"}) == [
        "$: missing required field 'arguments'"
    ]
    assert _models.METHODS["tool/call"].result["0.1"] == "ToolResult01"
