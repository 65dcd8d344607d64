"""Tools whose schemas come from type hints: no hand-written JSON Schema.

``area`` takes a TypedDict and returns a dataclass: both its ``parameters`` and its
``output_schema`` are derived, the host sees them at initialize, the SDK validates arguments
against the first and the returned value against the second. ``route`` takes a dataclass
holding a list of dataclasses and an Enum, which arrive as instances.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Annotated, Literal, NotRequired, TypedDict

from octet_extension import Extension

ext = Extension()


class AreaArgs(TypedDict):
    """A rectangle."""

    width: Annotated[float, {"minimum": 0}, "the width"]
    height: Annotated[float, {"minimum": 0}, "the height"]
    unit: NotRequired[Literal["m", "cm"]]


@dataclass
class AreaResult:
    area: float
    unit: str = "m"


class Mode(enum.Enum):
    WALK = "walk"
    CYCLE = "cycle"


@dataclass
class Stop:
    name: Annotated[str, {"minLength": 1}]
    minutes: Annotated[int, {"minimum": 0, "maximum": 600}]


@dataclass
class RouteArgs:
    stops: Annotated[list[Stop], {"minItems": 1, "maxItems": 16}]
    mode: Mode = Mode.WALK


@dataclass
class RouteResult:
    total_minutes: int
    mode: str
    names: list[str] = field(default_factory=list)


@ext.tool(description="Area of a rectangle")
def area(args: AreaArgs) -> AreaResult:
    return AreaResult(area=args["width"] * args["height"], unit=args.get("unit", "m"))


@ext.tool(description="Total time of a route")
def route(args: RouteArgs) -> RouteResult:
    factor = 1 if args.mode is Mode.WALK else 0.5
    total = int(sum(s.minutes for s in args.stops) * factor)
    return RouteResult(total_minutes=total, mode=args.mode.value, names=[s.name for s in args.stops])


if __name__ == "__main__":
    ext.run()
