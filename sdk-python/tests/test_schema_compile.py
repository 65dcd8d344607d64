"""A schema the validator cannot compile is refused when the tool is defined, naming the tool
and the JSON pointer of the bad keyword; portable patterns compile, others are refused."""

from __future__ import annotations

import pytest

from octet_extension import Extension
from octet_extension._jsonschema import SchemaError, compile_schema


@pytest.mark.parametrize("schema,message", [
    ({"properties": {"x": {"pattern": "("}}},
     'tool "area": parameters schema /properties/x/pattern: invalid regular expression'),
    ({"properties": {"x": {"pattern": "(?=a)"}}},
     'tool "area": parameters schema /properties/x/pattern: invalid regular expression'),
    ({"$ref": "https://example.com/elsewhere.json"},
     'tool "area": parameters schema /$ref: cannot resolve'),
    ({"$defs": {"a": {"minLength": "3"}}, "$ref": "#/$defs/a"},
     'tool "area": parameters schema /$defs/a/minLength: must be a non-negative integer'),
    ({"type": "strin"}, 'tool "area": parameters schema /type: must be a type name'),
    ({"items": 3}, 'tool "area": parameters schema /items: a schema must be an object or a '
                   "boolean"),
    ({"patternProperties": {"a{": {}}},
     'tool "area": parameters schema /patternProperties/a{: invalid regular expression'),
    ({"$ref": "#/$defs/missing"}, 'tool "area": parameters schema /$ref: cannot resolve'),
])
def test_uncompilable_schemas_are_refused_at_definition(schema, message) -> None:
    ext = Extension()
    with pytest.raises(ValueError) as err:
        ext.tool(name="area", description="", parameters=schema)(lambda args: "x")
    assert str(err.value).startswith(message), str(err.value)


def test_an_uncompilable_output_schema_is_refused_too() -> None:
    ext = Extension()
    with pytest.raises(ValueError) as err:
        ext.tool(name="area", description="", output_schema={
            "type": "object", "properties": {"n": {"multipleOf": 0}}})(lambda args: "x")
    assert str(err.value) == ('tool "area": output_schema /properties/n/multipleOf: must be a '
                              "number above 0")


def test_dynamic_catalog_tools_are_compiled_when_registered() -> None:
    from octet_extension._registry import make_tool

    with pytest.raises(ValueError, match=r'tool "dyn": parameters schema /\$ref: cannot'):
        make_tool("dyn", "", lambda args: "x", {"$ref": "other.json"})


@pytest.mark.parametrize("pattern,yes,no", [
    ("^[a-z]+\\.txt$", "ab.txt", "ab.txt\n"),   # $ is the end of the text, not before a \n
    ("^\\d+$", "123", "١٢٣"),                   # \d is ASCII, as in RE2 and ECMAScript
    ("^\\w+$", "a_1", "é"),
    ("^a.b$", "a-b", "a\nb"),                   # . is anything but \n
    ("^\\s$", " ", "\u00a0"),                   # \s is [\t\n\f\r ] (RE2)
    ("^\\p{Letter}+$", "πé", "1"),
    ("^\\p{Lu}", "Éa", "éa"),
    ("^[^\\d]x{2,3}?$", "axx", "1xx"),
    ("\\bcat\\b", "a cat", "cats"),
    ("^\\x41\\-\\/$", "A-/", "A-"),
])
def test_portable_patterns_mean_what_re2_means(pattern, yes, no) -> None:
    validator = compile_schema({"pattern": pattern})
    assert validator.is_valid(yes) and not validator.is_valid(no)


@pytest.mark.parametrize("pattern", [
    "(a)\\1", "(?<n>a)", "(?i)a", "\\u0041", "\\x{41}", "[[:alpha:]]", "\\p{Greek}", "a{1001}",
    "a*+", "{", "a}", "]", "[]a]", "\\Z", "\\z", "\\A", "[\\D]", "(?!a)",
])
def test_non_portable_patterns_are_refused(pattern) -> None:
    with pytest.raises(SchemaError) as err:
        compile_schema({"properties": {"p": {"pattern": pattern}}})
    assert err.value.pointer == "/properties/p/pattern"


def test_the_shared_pattern_dialect_vectors() -> None:
    # schema/vectors/patterns/dialect.json: the same verdicts in Go and TypeScript.
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "schema" / "vectors" / "patterns" / "dialect.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    for vector in doc["portable"]:
        validator = compile_schema({"pattern": vector["pattern"]})
        assert all(validator.is_valid(s) for s in vector["matches"]), vector
        assert not any(validator.is_valid(s) for s in vector["rejects"]), vector
    for pattern in doc["refused"]:
        with pytest.raises(SchemaError):
            compile_schema({"pattern": pattern})
