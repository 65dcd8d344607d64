"""schema/vectors/negotiation/answer-*.json: the exact answer or refusal of initialize, as
every SDK must give it (the Go and TypeScript SDKs and the host run the same files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from octet_extension import Extension, RemoteError
from octet_extension._negotiate import negotiate

VECTORS = Path(__file__).resolve().parents[2] / "schema" / "vectors" / "negotiation"
FILES = sorted(VECTORS.glob("answer-*.json"))


def test_vectors_found() -> None:
    assert len(FILES) >= 10, f"negotiation vectors not found under {VECTORS}"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_negotiation_vector(path: Path) -> None:
    v = json.loads(path.read_text())
    ext = Extension(api_version=v["pinned"], max_concurrent_requests=v["max_concurrent_requests"])
    for event in v["handlers"].get("lifecycle", []):
        ext.on_lifecycle(event)(lambda params: None)
    manifest = v["manifest"]
    params: dict[str, Any] = {
        "octet_version": "0.8.0",
        "extension": {"name": manifest["name"], "version": manifest["version"], "dir": "/ext",
                      "manifest_path": "/ext/extension.toml", "source": "explicit"},
        "manifest": manifest,
        "workspace": {"root": "/workspace", "trusted": True},
        **v["offer"],
    }
    expect = v["expect"]
    try:
        _, result = negotiate(ext._declared, v["pinned"], params)  # what the author declared
    except RemoteError as exc:
        assert "error" in expect, f"refused {exc.to_wire()}, want the answer {expect}"
        assert exc.to_wire() == expect["error"]
        return
    assert "protocol" in expect, f"answered {result.get('protocol')}, want {expect['error']}"
    assert result["protocol"] == expect["protocol"]
