"""Integral numbers reach handlers as integers.

An author's schema is draft 2020-12, where ``7.0`` is the integer 7: a tool's ``integer``
parameter accepts it, so its handler must receive the int 7, as the Go SDK's int field and
the TypeScript number do, not the float ``json`` made of the text. Every float in the
arguments that is integral and within ±2^53 (where float and int mean the same number)
becomes that int; larger floats stay as read (``int(1e300)`` would invent digits nobody
wrote).
"""

from __future__ import annotations

from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_EXACT = 2.0**53


def integral_numbers(value: Any) -> Any:
    """``value`` with its integral floats as ints; the same object when it holds none."""
    kind = type(value)
    if kind is float:
        return int(value) if value.is_integer() and -_EXACT <= value <= _EXACT else value
    if kind is dict:
        out = None
        for key, item in value.items():
            new = integral_numbers(item)
            if new is not item:
                if out is None:
                    out = dict(value)
                out[key] = new
        return value if out is None else out
    if kind is list:
        items = None
        for i, item in enumerate(value):
            new = integral_numbers(item)
            if new is not item:
                if items is None:
                    items = list(value)
                items[i] = new
        return value if items is None else items
    return value
