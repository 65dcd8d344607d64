"""Tool schemas (``parameters``, ``output_schema``), compiled once per tool, judged per call.

The validator is the complete draft 2020-12 one in ``_jsonschema`` (no dependencies); this
module adapts it to the SDK: a compiled schema is a ``Check`` that raises ``SchemaViolation``
(an ``InvalidParams``, so -32602) carrying the one fault the fault contract reports
(docs/conformance.md#validation-faults), identical to the Go and TypeScript SDKs' answer.
An author's schema is standard draft 2020-12, not the octet wire: an integral number written
``7.0`` (a Python float) is an ``integer`` there, and an int is judged exactly at any size
(the wire rule ``rpc.strict_json`` stays for the protocol's own fields).
"""

from __future__ import annotations

from ._errors import SchemaViolation
from ._jsonschema import SchemaError
from ._jsonschema import compile_schema as _compile
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeAlias

    Check: TypeAlias = Callable[[Any, str], None]

__all__ = ["SchemaError", "compile_schema", "validate"]


def compile_schema(schema: Any) -> Check | None:
    """A function raising SchemaViolation for an instance the schema rejects; None when the
    schema is absent or accepts everything. Raises SchemaError for a schema that cannot be
    compiled (the caller names the tool)."""
    if schema is None or schema is True or schema == {}:
        return None
    validator = _compile(schema)
    is_valid = validator.is_valid
    fault = validator.fault

    def check(value: Any, path: str) -> None:
        if is_valid(value):
            return
        found = fault(value)
        assert found is not None
        raise SchemaViolation(found[0], found[1], found[2], path)

    return check


def validate(value: Any, schema: Any, path: str = "") -> None:
    """Validate once against an uncompiled schema (tests, one-off checks)."""
    check = compile_schema(schema)
    if check is not None:
        check(value, path)
