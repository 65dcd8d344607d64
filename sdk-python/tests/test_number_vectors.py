"""The shared number corpus (schema/vectors/numbers/*.json): authors' schemas are draft
2020-12, so an integral 7.0 is an integer and reaches the handler as int 7, 1.5 is refused
with the contract's fault, and integers beyond 2^53 are judged exactly, as in Go,
TypeScript and the host."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from octet_extension import Extension
from octet_extension._codec import loads
from octet_extension._integral import integral_numbers
from octet_extension._jsonschema import compile_schema
from octet_extension.testing import LoopbackHost

VECTORS = Path(__file__).resolve().parents[2] / "schema" / "vectors" / "numbers"


def _vectors() -> list[tuple[str, dict[str, object]]]:
    out = []
    for path in sorted(VECTORS.glob("*.json")):
        for vector in loads(path.read_bytes()):
            out.append((f"{path.name}: {vector['description']}", vector))
    return out


ALL = _vectors()


def test_corpus_is_there() -> None:
    assert len(ALL) >= 15
    assert {v["valid"] for _, v in ALL} == {True, False}


@pytest.mark.parametrize("vector", [v for _, v in ALL], ids=[name for name, _ in ALL])
def test_number_vector(vector: dict[str, object]) -> None:
    validator = compile_schema(vector["schema"])
    found = validator.fault(vector["instance"])
    if vector["valid"]:
        assert found is None
    else:
        assert found == (vector["pointer"], vector["keyword"], vector["reason"])
        assert vector["message"] == \
            f"invalid arguments: {vector['pointer'] or '(root)'}: {vector['reason']}"
    if "delivered" in vector:
        got = integral_numbers(vector["instance"])
        assert got == vector["delivered"]
        assert json.dumps(got) == json.dumps(vector["delivered"])  # int 7, never float 7.0


def test_served_tools_deliver_and_refuse_as_the_vectors_say() -> None:
    # Every object vector through a real tool call: the handler's value or the -32602.
    served = [v for _, v in ALL if isinstance(v["instance"], dict)]
    assert len(served) >= 5
    seen: dict[str, object] = {}
    ext = Extension()
    for i, vector in enumerate(served):
        def handler(args: object, name: str = f"v{i}") -> str:
            seen[name] = args
            return "ok"
        ext.tool(name=f"v{i}", description="", parameters=vector["schema"])(handler)
    with LoopbackHost(ext) as host:
        for i, vector in enumerate(served):
            answer = host.request("tool/call", {"name": f"v{i}", "arguments": vector["instance"]})
            if vector["valid"]:
                assert answer.error is None, vector["description"]
                if "delivered" in vector:
                    assert json.dumps(seen[f"v{i}"]) == json.dumps(vector["delivered"])
            else:
                assert answer.error["message"] == vector["message"], vector["description"]


def test_integral_numbers_copies_only_what_changes() -> None:
    plain = {"n": 12, "s": "7.0", "xs": [1, 2.5]}
    assert integral_numbers(plain) is plain
    mixed = {"keep": [2.5], "n": 7.0, "deep": [{"m": -0.0}], "big": 1e300, "beyond": 2.0**53 + 2}
    out = integral_numbers(mixed)
    assert out == {"keep": [2.5], "n": 7, "deep": [{"m": 0}], "big": 1e300, "beyond": 2.0**53 + 2}
    assert type(out["n"]) is int and type(out["deep"][0]["m"]) is int
    assert type(out["big"]) is float and type(out["beyond"]) is float  # no invented digits
    assert out["keep"] is mixed["keep"] and mixed["n"] == 7.0 and type(mixed["n"]) is float
