"""The service objects offer exactly the schema's operations: the sdk rows of methods.json plus
the conveniences of sdk-surface.json, with the same positional arguments in the same order
(the Go and TypeScript SDKs hold themselves to the same table)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from octet_extension import Extension
from octet_extension._apisurface import surface, surface_of

SCHEMA = Path(__file__).resolve().parents[2] / "schema"


def expected() -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    for row in json.loads((SCHEMA / "methods.json").read_text())["methods"]:
        sdk = row.get("sdk")
        if sdk:
            out.setdefault(sdk["service"], {})[sdk["operation"]] = sdk["arguments"]
    for row in json.loads((SCHEMA / "sdk-surface.json").read_text())["conveniences"]:
        out.setdefault(row["service"], {})[row["operation"]] = row["arguments"]
    return out


def differences(got: dict[str, dict[str, list[str]]],
                want: dict[str, dict[str, list[str]]]) -> list[str]:
    found = []
    for service in sorted(set(got) | set(want)):
        g, w = got.get(service, {}), want.get(service, {})
        for op in sorted(set(g) | set(w)):
            if g.get(op) != w.get(op):
                found.append(f"{service}.{op}: SDK {g.get(op)} schema {w.get(op)}")
    return found


def test_service_objects_match_the_schema() -> None:
    assert differences(surface(), expected()) == []


def test_a_renamed_or_swapped_operation_is_refused() -> None:
    want = expected()
    renamed = json.loads(json.dumps(surface()))
    renamed["kv"]["fetch"] = renamed["kv"].pop("get")
    assert differences(renamed, want) == ["kv.fetch: SDK ['key'] schema None",
                                          "kv.get: SDK None schema ['key']"]
    swapped = json.loads(json.dumps(surface()))
    swapped["agents"]["message"] = ["message", "target"]
    assert differences(swapped, want) == [
        "agents.message: SDK ['message', 'target'] schema ['target', 'message']"]


def test_an_extra_method_on_a_service_object_is_seen() -> None:
    ext = Extension()
    ext.kv.extra = lambda key: None  # type: ignore[attr-defined]
    assert "kv.extra: SDK ['key'] schema None" in differences(surface_of(ext), expected())


@pytest.mark.parametrize("module", ["octet_extension._apisurface"])
def test_the_command_prints_the_surface(module: str) -> None:
    out = subprocess.run([sys.executable, "-m", module], capture_output=True, text=True,
                         check=True, timeout=60)
    assert json.loads(out.stdout) == surface()
