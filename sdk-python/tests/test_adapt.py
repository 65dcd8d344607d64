"""Handler calling conventions: adapt() reads plain functions from their code object and
everything else through inspect.signature; both must pick the same convention."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from octet_extension._registry import _positional_shape, adapt


def one(value):
    return ("one", value)


def two(value, context):
    return ("two", value, context["k"])


def optional_context(value, context=None):
    return ("ctx", value, context and context["k"])


def own_default(value, extra=5):
    return ("own", value, extra)


def none():
    return ("none",)


def star(*args):
    return ("star", len(args))


def keyword_only(value, *, flag=True):
    return ("kw", value, flag)


def positional_only(value, context, /):
    return ("posonly", value, context["k"])


@functools.wraps(one)
def wrapped(*args: Any, **kwargs: Any) -> Any:
    return one(*args, **kwargs)


class Handlers:
    def method(self, value):
        return ("method", value)

    def __call__(self, value, context):
        return ("call", value, context["k"])


CASES = [
    (one, ("one", 1)),
    (two, ("two", 1, "c")),
    (optional_context, ("ctx", 1, "c")),
    (own_default, ("own", 1, 5)),
    (none, ("none",)),
    (star, ("star", 2)),
    (keyword_only, ("kw", 1, True)),
    (positional_only, ("posonly", 1, "c")),
    (lambda v, i=3: (v, i), (1, 3)),
    (wrapped, ("one", 1)),  # functools.wraps: the wrapped signature decides, as inspect says
    (Handlers().method, ("method", 1)),
    (Handlers(), ("call", 1, "c")),
    (functools.partial(own_default, extra=7), ("own", 1, 7)),
]


@pytest.mark.parametrize(("func", "expected"), CASES)
def test_adapt_calls_each_handler_shape_correctly(func, expected) -> None:
    assert adapt(func)(1, {"k": "c"}) == expected


@pytest.mark.parametrize("func", [one, two, optional_context, own_default, none, star,
                                  keyword_only, positional_only])
def test_code_object_shape_matches_inspect(func) -> None:
    fast = _positional_shape(func)
    # Force the inspect path by hiding the function behind a partial with nothing bound.
    slow = _positional_shape(functools.partial(func))
    assert fast == slow
