"""A small JSON Schema subset validator for tool arguments and structured results.

Supports the keywords tool schemas use in practice: type, properties, required,
additionalProperties, items, enum, const, minimum/maximum (and exclusive forms),
minLength/maxLength, minItems/maxItems, pattern, anyOf/oneOf/allOf. Unknown keywords are
ignored (the host validates again with a complete validator).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ._errors import InvalidParams

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "null": (type(None),),
}


def _is_type(value: Any, name: str) -> bool:
    # bool is an int in Python; the wire keeps them apart (STYLE.md, known traps).
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    kinds = _TYPES.get(name)
    return kinds is not None and isinstance(value, kinds)


@lru_cache(maxsize=256)
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


def validate(value: Any, schema: Any, path: str = "") -> None:
    """Raise InvalidParams naming the JSON path of the first violation."""
    if schema is True or not isinstance(schema, dict):
        return
    where = path or "/"
    kind = schema.get("type")
    if kind is not None:
        names = kind if isinstance(kind, list) else [kind]
        if not any(_is_type(value, n) for n in names):
            raise InvalidParams(f"expected {' or '.join(names)}, got {_name(value)}", where)
    if "const" in schema and value != schema["const"]:
        raise InvalidParams(f"expected the constant {schema['const']!r}", where)
    enum = schema.get("enum")
    if enum is not None and value not in enum:
        raise InvalidParams(f"{value!r} is not one of {enum!r}", where)
    if isinstance(value, dict):
        _object(value, schema, path)
    elif isinstance(value, list):
        _array(value, schema, path)
    elif isinstance(value, str):
        _string(value, schema, where)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        _number(value, schema, where)
    for sub in schema.get("allOf", ()):
        validate(value, sub, path)
    any_of = schema.get("anyOf")
    if any_of is not None and not _matches_any(value, any_of, path):
        raise InvalidParams("matches none of anyOf", where)
    one_of = schema.get("oneOf")
    if one_of is not None and sum(_ok(value, s, path) for s in one_of) != 1:
        raise InvalidParams("must match exactly one of oneOf", where)


def _ok(value: Any, schema: Any, path: str) -> bool:
    try:
        validate(value, schema, path)
    except InvalidParams:
        return False
    return True


def _matches_any(value: Any, schemas: list[Any], path: str) -> bool:
    return any(_ok(value, s, path) for s in schemas)


def _object(value: dict[str, Any], schema: dict[str, Any], path: str) -> None:
    for name in schema.get("required", ()):
        if name not in value:
            raise InvalidParams(f"missing required field {name!r}", path or "/")
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        sub = props.get(key)
        if sub is not None:
            validate(item, sub, f"{path}/{key}")
        elif extra is False:
            raise InvalidParams(f"unknown field {key!r}", path or "/")
        elif isinstance(extra, dict):
            validate(item, extra, f"{path}/{key}")


def _array(value: list[Any], schema: dict[str, Any], path: str) -> None:
    where = path or "/"
    if "minItems" in schema and len(value) < schema["minItems"]:
        raise InvalidParams(f"needs at least {schema['minItems']} items", where)
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        raise InvalidParams(f"allows at most {schema['maxItems']} items", where)
    items = schema.get("items")
    if isinstance(items, dict):
        for index, item in enumerate(value):
            validate(item, items, f"{path}/{index}")


def _string(value: str, schema: dict[str, Any], where: str) -> None:
    if "minLength" in schema and len(value) < schema["minLength"]:
        raise InvalidParams(f"shorter than {schema['minLength']} characters", where)
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise InvalidParams(f"longer than {schema['maxLength']} characters", where)
    pattern = schema.get("pattern")
    if pattern is not None and not _pattern(pattern).search(value):
        raise InvalidParams(f"does not match pattern {pattern!r}", where)


def _number(value: float, schema: dict[str, Any], where: str) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        raise InvalidParams(f"{value} is below the minimum {schema['minimum']}", where)
    if "maximum" in schema and value > schema["maximum"]:
        raise InvalidParams(f"{value} is above the maximum {schema['maximum']}", where)
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        raise InvalidParams(f"{value} must exceed {schema['exclusiveMinimum']}", where)
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        raise InvalidParams(f"{value} must be below {schema['exclusiveMaximum']}", where)


def _name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__
