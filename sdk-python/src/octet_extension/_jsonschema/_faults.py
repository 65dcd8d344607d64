"""The validation-fault contract (docs/conformance.md#validation-faults).

A fault is a tuple ``(pointer tokens, keyword rank, reason, keyword)``, so the reported fault
is plain ``min()``: tuples of str compare token by token by code point with a prefix first,
then the rank, then the reason. Identical in the Go and TypeScript SDKs.
"""

from __future__ import annotations

from .._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeAlias

    Fault: TypeAlias = tuple[tuple[str, ...], int, str, str]

ORDER = ("false", "type", "const", "enum", "required", "dependentRequired", "minProperties",
         "maxProperties", "additionalProperties", "propertyNames", "unevaluatedProperties",
         "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
         "unevaluatedItems", "items", "prefixItems", "minLength", "maxLength", "pattern",
         "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
         "anyOf", "oneOf", "not")
RANK = {keyword: index for index, keyword in enumerate(ORDER)}

# The order `type` names its types in, whatever the schema's order.
TYPE_ORDER = ("null", "boolean", "number", "integer", "string", "array", "object")


def fault(pointer: tuple[str, ...], keyword: str, reason: str) -> Fault:
    return (pointer, RANK.get(keyword, len(ORDER)), reason, keyword)
