"""The shared fault corpus (schema/vectors/faults/*.json): every vector gets exactly the
expected pointer, keyword, reason and -32602 error, as in Go and TypeScript
(docs/conformance.md#validation-faults)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from octet_extension import Extension
from octet_extension._jsonschema import compile_schema
from octet_extension._jsonschema._values import es_number, fault_json
from octet_extension.testing import LoopbackHost

VECTORS = Path(__file__).resolve().parents[2] / "schema" / "vectors" / "faults"


def _vectors() -> list[tuple[str, dict[str, object]]]:
    out = []
    for path in sorted(VECTORS.glob("*.json")):
        for vector in json.loads(path.read_text(encoding="utf-8")):
            out.append((f"{path.name}: {vector['description']}", vector))
    return out


ALL = _vectors()


def test_corpus_is_there() -> None:
    assert len(ALL) > 100
    keywords = {v["keyword"] for _, v in ALL}
    assert {"false", "type", "const", "enum", "required", "additionalProperties",
            "unevaluatedProperties", "uniqueItems", "multipleOf", "anyOf", "oneOf",
            "not"} <= keywords


@pytest.mark.parametrize("vector", [v for _, v in ALL], ids=[name for name, _ in ALL])
def test_fault_vector(vector: dict[str, object]) -> None:
    validator = compile_schema(vector["schema"])
    assert validator.fault(vector["instance"]) == (
        vector["pointer"], vector["keyword"], vector["reason"])
    pointer = vector["pointer"]
    assert vector["message"] == f"invalid arguments: {pointer or '(root)'}: {vector['reason']}"


def test_the_wire_error_is_the_vectors() -> None:
    # One object-typed vector through a real tool call: the whole error object.
    name, vector = next((n, v) for n, v in ALL if v["description"] == "nested, with ~ and / in "
                        "the names")
    ext = Extension()
    ext.tool(name="t", description="", parameters=vector["schema"])(lambda args: "ok")
    with LoopbackHost(ext) as host:
        answer = host.request("tool/call", {"name": "t", "arguments": vector["instance"]})
    assert answer.error == {"code": -32602, "message": vector["message"], "data": {
        "keyword": vector["keyword"], "path": "/arguments" + vector["pointer"],
        "pointer": vector["pointer"], "reason": vector["reason"]}}, name


@pytest.mark.parametrize("number,text", [
    (0, "0"), (1, "1"), (-1.5, "-1.5"), (0.1, "0.1"), (1e21, "1e+21"),
    (1e20, "100000000000000000000"), (1.5e-7, "1.5e-7"), (1e-6, "0.000001"), (3.0, "3"),
    (9007199254740991, "9007199254740991"), (10**400, "1" + "0" * 400),
])
def test_numbers_print_as_ecmascript(number: float, text: str) -> None:
    assert es_number(number) == text


def test_values_print_as_compact_sorted_json() -> None:
    assert fault_json({"b": [1.0, None], "a": "q\"\\\n\x01é\u2028<"}) == \
        '{"a":"q\\"\\\\\\n\\u0001é\u2028<","b":[1,null]}'
