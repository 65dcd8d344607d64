"""The typed tool of testsuites/typed-parity.json, declared with Python type hints.

Go declares the same tool with structs and TypeScript with its typed builder; each SDK must
derive exactly the schemas the file holds, so one definition means one wire contract.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NotRequired, TypedDict

from octet_extension import Extension
from octet_extension.testing import LoopbackHost

PARITY = Path(__file__).resolve().parents[2] / "testsuites" / "typed-parity.json"


class ParityArea(TypedDict):
    width: Annotated[float, {"minimum": 0}, "the width"]
    height: Annotated[float, {"minimum": 0}, "the height"]
    count: Annotated[int, {"minimum": 1, "maximum": 10}]
    tags: NotRequired[list[str]]
    label: NotRequired[str]


@dataclass
class ParityAreaResult:
    area: float
    unit: str = "m"


def test_typed_tool_parity() -> None:
    ext = Extension()

    @ext.tool(name="area", description="Area of a rectangle")
    def area(args: ParityArea) -> ParityAreaResult:
        return ParityAreaResult(area=args["width"] * args["height"])

    want: dict[str, Any] = json.loads(PARITY.read_text())["tools"]["area"]
    with LoopbackHost(ext, name="parity") as host:
        assert host.initialize_result is not None
        tools = {t["name"]: t for t in host.initialize_result["tools"]}
        result = host.call_tool("area", {"width": 2.0, "height": 3.0, "count": 1})
    assert result["structured_content"] == {"area": 6.0, "unit": "m"}
    assert tools["area"]["parameters"] == want["parameters"]
    assert tools["area"]["output_schema"] == want["output_schema"]
