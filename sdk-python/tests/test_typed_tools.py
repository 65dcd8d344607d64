"""Tools typed by their handler's hints: schemas derived, validated, and values converted."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import pytest

from octet_extension import Extension, RemoteError
from octet_extension.testing import LoopbackHost


class Unit(enum.Enum):
    METRE = "m"
    CENTIMETRE = "cm"


class AreaArgs(TypedDict):
    """A rectangle."""

    width: Annotated[float, {"minimum": 0}, "the width"]
    height: Annotated[float, {"minimum": 0}]
    unit: NotRequired[Literal["m", "cm"]]


@dataclass
class AreaResult:
    area: float
    unit: str = "m"
    notes: list[str] = field(default_factory=list)


@dataclass
class Point:
    x: int
    y: int


@dataclass
class PathArgs:
    points: list[Point]
    unit: Unit
    label: str | None = None


class PathResult(TypedDict):
    length: int
    first: dict[str, int]


def typed_extension() -> Extension:
    ext = Extension()

    @ext.tool(description="Area of a rectangle")
    def area(args: AreaArgs) -> AreaResult:
        return AreaResult(area=args["width"] * args["height"], unit=args.get("unit", "m"))

    @ext.tool(description="Manhattan length of a path")
    def path(args: PathArgs) -> PathResult:
        assert isinstance(args.points[0], Point) and isinstance(args.unit, Unit)
        total = sum(abs(b.x - a.x) + abs(b.y - a.y)
                    for a, b in zip(args.points, args.points[1:], strict=False))
        return {"length": total, "first": {"x": args.points[0].x, "y": args.points[0].y}}

    @ext.tool(description="Hand schemas still win", parameters={"type": "object"})
    def raw(args: dict[str, Any]) -> str:
        return "raw"

    return ext


def test_schemas_are_derived_from_type_hints() -> None:
    with LoopbackHost(typed_extension()) as host:
        assert host.initialize_result is not None
        tools = {t["name"]: t for t in host.initialize_result["tools"]}
    assert tools["area"]["parameters"] == {
        "type": "object",
        "properties": {
            "width": {"type": "number", "minimum": 0, "description": "the width"},
            "height": {"type": "number", "minimum": 0},
            "unit": {"enum": ["m", "cm"]},
        },
        "required": ["width", "height"],
        "additionalProperties": False,
        "description": "A rectangle.",
    }
    out = tools["area"]["output_schema"]
    assert out["required"] == ["area"] and out["additionalProperties"] is False
    assert out["properties"]["notes"] == {"type": "array", "items": {"type": "string"}}
    points = tools["path"]["parameters"]["properties"]["points"]
    assert points["items"]["required"] == ["x", "y"]
    assert tools["path"]["parameters"]["properties"]["unit"] == {"enum": ["m", "cm"]}
    assert tools["path"]["parameters"]["properties"]["label"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}]}
    assert tools["raw"]["parameters"] == {"type": "object"} and "output_schema" not in tools["raw"]


def test_typed_calls_convert_and_validate() -> None:
    with LoopbackHost(typed_extension()) as host:
        result = host.call_tool("area", {"width": 3, "height": 4, "unit": "cm"})
        assert result["structured_content"] == {"area": 12, "unit": "cm", "notes": []}
        assert result["content"] == [{"type": "text", "text": '{"area":12,"unit":"cm","notes":[]}'}]
        path = host.call_tool("path", {"points": [{"x": 0, "y": 0}, {"x": 2, "y": 3}], "unit": "m"})
        assert path["structured_content"] == {"length": 5, "first": {"x": 0, "y": 0}}
        with pytest.raises(RemoteError) as bad:
            host.call_tool("area", {"width": -1, "height": 4})
        assert bad.value.code == -32602
        with pytest.raises(RemoteError) as unknown:
            host.call_tool("area", {"width": 1, "height": 4, "depth": 2})
        assert unknown.value.code == -32602


def test_a_result_breaking_the_derived_schema_is_refused() -> None:
    ext = Extension()

    @ext.tool(description="Returns the wrong type")
    def wrong(args: AreaArgs) -> AreaResult:
        return AreaResult(area="twelve")  # type: ignore[arg-type]

    with LoopbackHost(ext) as host, pytest.raises(RemoteError) as err:
        host.call_tool("wrong", {"width": 1, "height": 1})
    assert err.value.code == -32603


@dataclass
class Node:
    child: Node | None


class Bad(TypedDict):
    when: complex


def test_underivable_hints_are_refused_at_definition() -> None:
    ext = Extension()

    with pytest.raises(TypeError, match="refers to itself"):
        @ext.tool(description="recursive")
        def rec(args: Node) -> str:
            return ""

    with pytest.raises(TypeError, match=r"tool 'bad' argument 'args'\.when: cannot derive"):
        @ext.tool(description="complex")
        def bad(args: Bad) -> str:
            return ""
