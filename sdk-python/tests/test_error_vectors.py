"""Every vector in schema/error-vectors gets exactly its error object from the Python SDK."""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import Any

import pytest

from octet_extension import Extension, RemoteError
from octet_extension.testing import LoopbackHost

VECTORS = Path(__file__).resolve().parents[2] / "schema" / "error-vectors"
FILES = sorted(VECTORS.glob("*.json"))


def _extension(v: dict[str, Any]) -> Extension:
    ext = Extension()
    tool = v["tool"]
    handler = v["handler"]

    @ext.tool(tool["name"], "vector", parameters=tool["parameters"],
              output_schema=tool.get("output_schema"))
    def run(arguments: dict[str, Any]) -> Any:
        raises = handler.get("raises")
        if raises is not None:
            spec = raises["python"]
            raise getattr(builtins, spec["exception"])(spec["message"])
        return handler["returns"]

    return ext


def test_vectors_exist() -> None:
    assert len(FILES) >= 3, "schema/error-vectors not found"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_error_vector(path: Path) -> None:
    v = json.loads(path.read_text())
    want = v["error_by_language"]["python"] if "error_by_language" in v else v["error"]
    with LoopbackHost(_extension(v)) as host:
        with pytest.raises(RemoteError) as err:
            host.call_tool(v["call"]["name"], v["call"]["arguments"])
    got = {"code": err.value.code, "message": err.value.message, "data": err.value.data}
    pending = v.get("pending", {}).get("python")
    if pending is None:
        assert got == want
        return
    # The validator's wording is not the fault contract's yet: everything else must match,
    # and the vector must say so no longer once the whole object does.
    assert got != want, f"pending ({pending}) but the whole object matches: remove python"
    pointer = want["data"]["pointer"]
    prefix = want["message"][: want["message"].index(pointer) + len(pointer) + 2]
    assert got["code"] == want["code"]
    assert got["data"]["tool"] == want["data"]["tool"]
    assert got["data"]["pointer"] == pointer
    assert got["message"].startswith(prefix), got["message"]
