"""Tool schemas derived from type hints, as MCP's Python SDK derives them.

``def area(args: AreaArgs) -> AreaResult`` with ``AreaArgs`` a ``TypedDict`` or dataclass
needs no hand-written ``parameters``; a ``TypedDict`` or dataclass return type gives the
tool an ``output_schema``, and the returned value becomes ``structured_content`` (its JSON is
the text part too). Constraints ride on ``typing.Annotated``: a dict is a JSON Schema
fragment merged into the derived schema, a str is the description::

    class AreaArgs(TypedDict):
        width: Annotated[float, {"minimum": 0}, "the width in metres"]
        unit: NotRequired[Literal["m", "cm"]]

This module is imported only when a tool's handler has annotations; ``dataclasses`` (which
imports ``inspect``, several ms) is touched only for a dataclass, when the author's module has
imported it already.
"""

from __future__ import annotations

import enum
import json
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

_NoneType = type(None)


class TypedTool:
    """What the handler's annotations say: derived schemas and the two conversions."""

    __slots__ = ("convert_args", "convert_result", "output_schema", "parameters")

    def __init__(self) -> None:
        self.parameters: dict[str, Any] | None = None
        self.output_schema: dict[str, Any] | None = None
        self.convert_args: Callable[[Any], Any] | None = None
        self.convert_result: Callable[[Any], Any] | None = None


def is_structured(tp: Any) -> bool:
    """A TypedDict or a dataclass: a JSON object with declared properties."""
    tp = _strip_annotated(tp)
    return _is_typeddict(tp) or _is_dataclass(tp)


def _is_dataclass(tp: Any) -> bool:
    return isinstance(tp, type) and hasattr(tp, "__dataclass_fields__")


def derive(tool: str, func: Callable[..., Any], arg_name: str | None) -> TypedTool:
    """Read ``func``'s hints: its argument ``arg_name`` and its return type."""
    try:
        hints = typing.get_type_hints(func, include_extras=True)
    except Exception as exc:  # a forward reference that does not resolve, say
        raise TypeError(f"tool {tool!r}: cannot read the handler's type hints: {exc}") from None
    out = TypedTool()
    arg = hints.get(arg_name) if arg_name else None
    if arg is not None and is_structured(arg):
        out.parameters = schema_of(arg, f"tool {tool!r} argument {arg_name!r}", set())
        if _needs_conversion(arg):
            out.convert_args = _converter(arg)
    ret = hints.get("return")
    if ret is not None and is_structured(ret):
        out.output_schema = schema_of(ret, f"tool {tool!r} return type", set())
        out.convert_result = _structured_result
    return out


def schema_of(tp: Any, where: str, seen: set[Any]) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a type hint."""
    extra: dict[str, Any] = {}
    if typing.get_origin(tp) is typing.Annotated:
        tp, *meta = typing.get_args(tp)
        for m in meta:
            if isinstance(m, Mapping):
                extra.update(m)
            elif isinstance(m, str):
                extra["description"] = m
    schema = _base_schema(tp, where, seen)
    schema.update(extra)
    return schema


def _base_schema(tp: Any, where: str, seen: set[Any]) -> dict[str, Any]:
    if tp is Any or tp is object:
        return {}
    if tp is _NoneType or tp is None:
        return {"type": "null"}
    if tp is bool:  # before int: bool is an int in Python
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value for m in tp]}
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin is typing.Union or origin is types.UnionType:
        branches = [schema_of(a, where, seen) for a in args]
        return {"anyOf": branches}
    if origin in (list, Sequence, set, frozenset) or tp in (list, set, frozenset):
        out: dict[str, Any] = {"type": "array"}
        if args:
            out["items"] = schema_of(args[0], where, seen)
        if origin in (set, frozenset):
            out["uniqueItems"] = True
        return out
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": schema_of(args[0], where, seen)}
        return {"type": "array", "prefixItems": [schema_of(a, where, seen) for a in args],
                "items": False, "minItems": len(args), "maxItems": len(args)}
    if origin in (dict, Mapping) or tp is dict:
        if args and args[0] is not str:
            raise TypeError(f"{where}: dict keys must be str (JSON object keys), got {args[0]!r}")
        out = {"type": "object"}
        if args:
            out["additionalProperties"] = schema_of(args[1], where, seen)
        return out
    if _is_typeddict(tp) or _is_dataclass(tp):
        if tp in seen:
            raise TypeError(f"{where}: {tp.__name__} refers to itself; recursive types need a "
                            "hand-written schema (parameters=/output_schema=)")
        return _object_schema(tp, where, seen | {tp})
    raise TypeError(f"{where}: cannot derive a JSON Schema from {tp!r}; use str, int, float, "
                    "bool, None, Literal, Enum, list, tuple, dict[str, T], a TypedDict or a "
                    "dataclass, or pass the schema by hand")


def _object_schema(tp: Any, where: str, seen: set[Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(tp, include_extras=True)
    props: dict[str, Any] = {}
    required: list[str] = []
    if _is_typeddict(tp):
        total = getattr(tp, "__total__", True)
        for name, hint in hints.items():
            props[name] = schema_of(_strip_required(hint), f"{where}.{name}", seen)
            # Read Required/NotRequired from the hints, not __required_keys__: under
            # `from __future__ import annotations` Python 3.11 cannot see them there.
            marker = typing.get_origin(hint)
            if marker is typing.Required or (marker is not typing.NotRequired and total):
                required.append(name)
    else:
        import dataclasses

        for f in dataclasses.fields(tp):
            props[f.name] = schema_of(hints[f.name], f"{where}.{f.name}", seen)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                required.append(f.name)
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    doc = tp.__doc__
    # A dataclass without a docstring gets a generated signature as __doc__: not a description.
    if doc and not doc.startswith(tp.__name__ + "("):
        out["description"] = " ".join(doc.split())
    return out


def _strip_required(hint: Any) -> Any:
    while typing.get_origin(hint) in (typing.Required, typing.NotRequired):
        hint = typing.get_args(hint)[0]
    return hint


def _strip_annotated(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def _needs_conversion(tp: Any) -> bool:
    """Whether validated JSON must be rebuilt into instances (some dataclass inside)."""
    tp = _strip_required(_strip_annotated(tp))
    if _is_dataclass(tp):
        return True
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return True
    if _is_typeddict(tp):
        hints = typing.get_type_hints(tp, include_extras=True)
        return any(_needs_conversion(h) for h in hints.values())
    return any(_needs_conversion(a) for a in typing.get_args(tp) if a is not Ellipsis)


def _converter(tp: Any) -> Callable[[Any], Any]:
    """Turn already validated JSON into the hinted type: dataclasses and enums rebuilt."""
    tp = _strip_required(_strip_annotated(tp))
    if _is_dataclass(tp):
        import dataclasses

        hints = typing.get_type_hints(tp, include_extras=True)
        fields = {f.name: _converter(hints[f.name]) for f in dataclasses.fields(tp)}
        cls = tp

        def build(value: Any) -> Any:
            return cls(**{k: fields[k](v) for k, v in value.items()})

        return build
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if _is_typeddict(tp):
        hints = typing.get_type_hints(tp, include_extras=True)
        subs = {k: _converter(h) for k, h in hints.items()}
        return lambda value: {k: subs[k](v) if k in subs else v for k, v in value.items()}
    if origin in (list, Sequence) and args:
        item = _converter(args[0])
        return lambda value: [item(v) for v in value]
    if origin in (dict, Mapping) and len(args) == 2:
        item = _converter(args[1])
        return lambda value: {k: item(v) for k, v in value.items()}
    if origin is typing.Union or origin is types.UnionType:
        # A value matches one branch; rebuild it with the first branch whose shape fits.
        options = [(a, _converter(a)) for a in args]

        def pick(value: Any) -> Any:
            for a, conv in options:
                if _fits(a, value):
                    return conv(value)
            return value

        return pick
    return lambda value: value


def _fits(tp: Any, value: Any) -> bool:
    tp = _strip_annotated(tp)
    if tp is _NoneType:
        return value is None
    if _is_dataclass(tp) or _is_typeddict(tp):
        return isinstance(value, dict)
    origin = typing.get_origin(tp) or tp
    return isinstance(origin, type) and isinstance(value, origin)


def _structured_result(value: Any) -> Any:
    """The tool result of a structured return value: it is the structured_content, and its
    compact JSON the text part (for hosts and models that read only text)."""
    if hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
        import dataclasses

        value = dataclasses.asdict(value)
    if not isinstance(value, dict):
        return value  # not the hinted type: the result checks say what is wrong
    structured = json.loads(json.dumps(value, default=_jsonable))
    text = json.dumps(structured, ensure_ascii=False, separators=(",", ":"))
    return {"content": [{"type": "text", "text": text}], "structured_content": structured}


def _jsonable(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
