"""A small JSON Schema subset, compiled once per schema into plain closures.

Supports the keywords tool schemas use in practice: type, properties, required,
additionalProperties, items, enum, const, minimum/maximum (and exclusive forms),
minLength/maxLength, minItems/maxItems, pattern, anyOf/oneOf/allOf. Unknown keywords are
ignored (the host validates again with a complete validator). Compiling matters: validation
runs on every tool call, so each schema becomes a chain of small checks decided up front.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._errors import InvalidParams
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, TypeAlias

    Check: TypeAlias = Callable[[Any, str], None]


def _is_type(value: Any, name: str) -> bool:
    # bool is an int in Python; the wire keeps them apart (STYLE.md, known traps).
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    return False


def compile_schema(schema: Any) -> Check | None:
    """A function raising InvalidParams on the first violation; None if anything goes."""
    if not isinstance(schema, dict):
        return None
    checks: list[Check] = []
    kind = schema.get("type")
    if kind is not None:
        names = kind if isinstance(kind, list) else [kind]
        expected = " or ".join(names)
        if names == ["object"]:
            def check_object_type(value: Any, path: str) -> None:
                if type(value) is not dict:
                    raise InvalidParams(f"expected object, got {_name(value)}", path or "/")
            checks.append(check_object_type)
        else:
            def check_type(value: Any, path: str) -> None:
                if not any(_is_type(value, n) for n in names):
                    raise InvalidParams(f"expected {expected}, got {_name(value)}", path or "/")
            checks.append(check_type)
    if "const" in schema:
        const = schema["const"]

        def check_const(value: Any, path: str) -> None:
            if value != const or type(value) is not type(const):
                raise InvalidParams(f"expected the constant {const!r}", path or "/")
        checks.append(check_const)
    if "enum" in schema:
        enum = schema["enum"]

        def check_enum(value: Any, path: str) -> None:
            if not any(value == e and type(value) is type(e) for e in enum):
                raise InvalidParams(f"{value!r} is not one of {enum!r}", path or "/")
        checks.append(check_enum)
    for build in (_object, _array, _string, _number, _combinators):
        check = build(schema)
        if check is not None:
            checks.append(check)
    if not checks:
        return None
    if len(checks) == 1:
        return checks[0]

    def check_all(value: Any, path: str) -> None:
        for check in checks:
            check(value, path)
    return check_all


def _object(schema: dict[str, Any]) -> Check | None:
    required = list(schema.get("required", ()))
    props = {k: compile_schema(v) for k, v in (schema.get("properties") or {}).items()}
    extra = schema.get("additionalProperties", True)
    closed = extra is False
    extra_check = compile_schema(extra) if isinstance(extra, dict) else None
    typed = {k: v for k, v in props.items() if v is not None}
    if not required and not typed and not closed and extra_check is None:
        return None

    def check(value: Any, path: str) -> None:
        if type(value) is not dict:
            return
        for name in required:
            if name not in value:
                raise InvalidParams(f"missing required field {name!r}", path or "/")
        if closed or extra_check is not None:
            for key, item in value.items():
                if key in props:
                    sub = props[key]
                    if sub is not None:
                        sub(item, f"{path}/{key}")
                elif closed:
                    raise InvalidParams(f"unknown field {key!r}", path or "/")
                elif extra_check is not None:
                    extra_check(item, f"{path}/{key}")
        else:
            for key, sub in typed.items():
                if key in value:
                    sub(value[key], f"{path}/{key}")
    return check


def _array(schema: dict[str, Any]) -> Check | None:
    low, high = schema.get("minItems"), schema.get("maxItems")
    items = compile_schema(schema.get("items"))
    if low is None and high is None and items is None:
        return None

    def check(value: Any, path: str) -> None:
        if type(value) is not list:
            return
        if low is not None and len(value) < low:
            raise InvalidParams(f"needs at least {low} items", path or "/")
        if high is not None and len(value) > high:
            raise InvalidParams(f"allows at most {high} items", path or "/")
        if items is not None:
            for index, item in enumerate(value):
                items(item, f"{path}/{index}")
    return check


def _string(schema: dict[str, Any]) -> Check | None:
    low, high = schema.get("minLength"), schema.get("maxLength")
    source = schema.get("pattern")
    pattern = re.compile(source) if isinstance(source, str) else None
    if low is None and high is None and pattern is None:
        return None

    def check(value: Any, path: str) -> None:
        if type(value) is not str:
            return
        if low is not None and len(value) < low:
            raise InvalidParams(f"shorter than {low} characters", path or "/")
        if high is not None and len(value) > high:
            raise InvalidParams(f"longer than {high} characters", path or "/")
        if pattern is not None and not pattern.search(value):
            raise InvalidParams(f"does not match pattern {source!r}", path or "/")
    return check


def _number(schema: dict[str, Any]) -> Check | None:
    bounds = [(k, schema[k]) for k in ("minimum", "maximum", "exclusiveMinimum",
                                       "exclusiveMaximum") if k in schema]
    if not bounds:
        return None

    def check(value: Any, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return
        for key, bound in bounds:
            if key == "minimum" and value < bound:
                raise InvalidParams(f"{value} is below the minimum {bound}", path or "/")
            if key == "maximum" and value > bound:
                raise InvalidParams(f"{value} is above the maximum {bound}", path or "/")
            if key == "exclusiveMinimum" and value <= bound:
                raise InvalidParams(f"{value} must exceed {bound}", path or "/")
            if key == "exclusiveMaximum" and value >= bound:
                raise InvalidParams(f"{value} must be below {bound}", path or "/")
    return check


def _combinators(schema: dict[str, Any]) -> Check | None:
    all_of = [c for c in map(compile_schema, schema.get("allOf", ())) if c is not None]
    any_of = [compile_schema(s) for s in schema["anyOf"]] if "anyOf" in schema else None
    one_of = [compile_schema(s) for s in schema["oneOf"]] if "oneOf" in schema else None
    if not all_of and any_of is None and one_of is None:
        return None

    def check(value: Any, path: str) -> None:
        for sub in all_of:
            sub(value, path)
        if any_of is not None and not any(_ok(c, value, path) for c in any_of):
            raise InvalidParams("matches none of anyOf", path or "/")
        if one_of is not None and sum(_ok(c, value, path) for c in one_of) != 1:
            raise InvalidParams("must match exactly one of oneOf", path or "/")
    return check


def _ok(check: Check | None, value: Any, path: str) -> bool:
    if check is None:
        return True
    try:
        check(value, path)
    except InvalidParams:
        return False
    return True


def validate(value: Any, schema: Any, path: str = "") -> None:
    """Validate once against an uncompiled schema (tests, one-off checks)."""
    check = compile_schema(schema)
    if check is not None:
        check(value, path)


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
