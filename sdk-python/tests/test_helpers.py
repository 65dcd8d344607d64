"""Pure helpers: content builders, hook fields, the schema subset, cancellation tokens."""

from __future__ import annotations

import threading

import pytest

from octet_extension import (
    CancellationToken,
    Cancelled,
    Extension,
    InvalidParams,
    UnavailableError,
    audio_content,
    current_cancellation,
    image_content,
    persistence_metadata,
    post_mutation_rescan,
    text_content,
    tool_result,
)
from octet_extension._schema import validate


def test_content_builders() -> None:
    assert text_content("hi") == {"type": "text", "text": "hi"}
    assert image_content("a1", "image/webp") == {"type": "image", "artifact_id": "a1",
                                                 "mime_type": "image/webp"}
    assert audio_content("a2", "audio/ogg", transcript="words")["transcript"] == "words"
    assert tool_result("plain", is_error=True, metadata={"k": 1}) == {
        "content": [{"type": "text", "text": "plain"}], "is_error": True, "metadata": {"k": 1}}
    with pytest.raises(ValueError, match="image/bmp"):
        image_content("a1", "image/bmp")
    with pytest.raises(ValueError, match="audio/wav"):
        audio_content("a1", "image/png")
    with pytest.raises(ValueError, match="artifact_id"):
        image_content("", "image/png")
    with pytest.raises(TypeError):
        text_content(3)  # type: ignore[arg-type]


def test_hook_result_fields() -> None:
    assert persistence_metadata({"a": 1}, public=True) == {
        "persistence_metadata": {"value": {"a": 1}, "public": True}}
    assert post_mutation_rescan(iter(["r1", "r2"])) == {
        "post_mutation_rescan": {"resource_ids": ["r1", "r2"]}}
    with pytest.raises(TypeError):
        persistence_metadata([1])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        post_mutation_rescan([1])  # type: ignore[list-item]


@pytest.mark.parametrize("value,schema,reason", [
    (1.5, {"type": "integer"}, "(root): want type integer, got number"),
    (True, {"type": "number"}, "(root): want type number, got boolean"),
    (None, {"type": ["string", "integer"]}, "(root): want type integer or string, got null"),
    ("b", {"enum": ["a", 1]}, '(root): want one of ["a",1]'),
    (True, {"enum": [1]}, "(root): want one of [1]"),
    (2, {"const": 1}, "(root): want constant 1"),
    ("", {"minLength": 1}, "(root): want at least 1 characters, got 0"),
    ("abc", {"maxLength": 2}, "(root): want at most 2 characters, got 3"),
    ("abc", {"pattern": "^z"}, '(root): want a string matching "^z"'),
    (0, {"minimum": 1}, "(root): want at least 1, got 0"),
    (5, {"maximum": 4}, "(root): want at most 4, got 5"),
    (1, {"exclusiveMinimum": 1}, "(root): want more than 1, got 1"),
    (4, {"exclusiveMaximum": 4}, "(root): want less than 4, got 4"),
    ([], {"minItems": 1}, "(root): want at least 1 items, got 0"),
    ([1, 2], {"maxItems": 1}, "(root): want at most 1 items, got 2"),
    ([1, "x"], {"items": {"type": "integer"}}, "/1: want type integer, got string"),
    ({"a": "x"}, {"additionalProperties": {"type": "integer"}},
     "/a: want type integer, got string"),
    ("x", {"anyOf": [{"type": "integer"}, {"type": "null"}]}, "(root): matches no anyOf branch"),
    (1, {"oneOf": [{"type": "integer"}, {"minimum": 0}]}, "(root): matches oneOf branches 0 and 1"),
    (1, {"allOf": [{"type": "integer"}, {"minimum": 2}]}, "(root): want at least 2, got 1"),
])
def test_schema_subset_rejects(value, schema, reason) -> None:
    with pytest.raises(InvalidParams) as err:
        validate(value, schema)
    assert str(err.value) == reason  # the fault contract's reason, exactly


@pytest.mark.parametrize("value,schema", [
    (1, {"type": "number"}), ({"a": {"b": [1]}}, {"type": "object", "properties": {"a": {
        "type": "object", "properties": {"b": {"items": {"type": "integer"}}}}}}),
    ("x", {"anyOf": [{"type": "integer"}, {"type": "string"}]}), (None, True), (3, {}),
    ({"x": 1}, {"properties": {"x": {"type": "integer"}}, "unknownKeyword": 1}),
])
def test_schema_subset_accepts(value, schema) -> None:
    validate(value, schema)


def test_nested_paths_are_reported() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "array", "items": {
        "type": "object", "required": ["id"]}}}}
    with pytest.raises(InvalidParams) as err:
        validate({"a": [{"id": 1}, {}]}, schema, "/arguments")
    assert err.value.path == "/arguments/a/1"
    assert err.value.reason == 'missing required property "id"'


def test_cancellation_token() -> None:
    token = CancellationToken()
    fired = []
    remove = token.on_cancel(lambda: fired.append("a"))
    token.on_cancel(lambda: fired.append("b"))
    remove()
    assert token.wait(0) is False and not token.cancelled
    waiter = threading.Thread(target=token.wait)
    waiter.start()
    token.cancel()
    token.cancel()  # idempotent
    waiter.join(5)
    assert not waiter.is_alive() and token.is_cancelled() and fired == ["b"]
    token.on_cancel(lambda: fired.append("late"))  # already cancelled: runs now
    assert fired == ["b", "late"]
    with pytest.raises(Cancelled):
        token.raise_if_cancelled()
    with pytest.raises(Cancelled):
        token.sleep(10)


def test_ambient_values_outside_handlers() -> None:
    ext = Extension()
    assert ext.request_id is None and ext.cancellation is None
    assert ext.negotiated_features == frozenset() and ext.negotiated_concurrency == 0
    assert ext.catalog.revision() == 0
    with pytest.raises(UnavailableError, match="active handler"):
        current_cancellation()
