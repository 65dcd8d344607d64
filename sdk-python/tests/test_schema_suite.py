"""The official JSON Schema Test Suite (testsuites/README.md), draft 2020-12, through the SDK's
validator: every required case (not optional/), remotes served from memory as
http://localhost:1234/..., the shared skip file honoured (a skipped case that passes fails).
The optional format cases run as an advisory count: format is an annotation here, as in Go.
"""

from __future__ import annotations

import json
from pathlib import Path

from octet_extension._jsonschema import SchemaError, compile_schema

ROOT = Path(__file__).resolve().parents[2] / "testsuites"
SUITE = ROOT / "json-schema-test-suite"


def _remotes() -> dict[str, object]:
    base = SUITE / "remotes"
    return {"http://localhost:1234/" + p.relative_to(base).as_posix(): json.loads(p.read_text())
            for p in base.rglob("*.json")}


def _skips() -> dict[tuple[str, str, str], str]:
    doc = json.loads((ROOT / "json-schema-skips.json").read_text())
    out = {}
    for entry in doc["skips"]:
        assert {"file", "case", "test", "languages", "reason"} <= set(entry), entry
        if "python" in entry["languages"]:
            out[(entry["file"], entry["case"], entry["test"])] = entry["reason"]
    return out


def _run(files: list[Path], skips: dict[tuple[str, str, str], str]) -> tuple[int, int, list[str]]:
    remotes = _remotes()
    passed = total = 0
    wrong: list[str] = []
    for path in files:
        rel = path.relative_to(SUITE).as_posix()
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            try:
                validator = compile_schema(group["schema"], documents=remotes,
                                           base_uri=f"http://localhost:1234/suite/{index}.json")
                error = None
            except SchemaError as exc:
                validator, error = None, exc
            for test in group["tests"]:
                total += 1
                ok = validator is not None and validator.is_valid(test["data"]) == test["valid"]
                if ok and validator is not None and not test["valid"]:
                    ok = bool(validator.faults(test["data"]))  # an invalid case names a fault
                key = (rel, group["description"], test["description"])
                if key in skips:
                    if ok:
                        wrong.append(f"{key} passes but is skipped ({skips[key]}): remove it")
                    continue
                if ok:
                    passed += 1
                else:
                    wrong.append(f"{key}: want valid={test['valid']} (compile error: {error})")
    return passed, total, wrong


def test_required_draft_2020_12_cases(capsys) -> None:
    files = sorted((SUITE / "tests" / "draft2020-12").glob("*.json"))
    assert len(files) > 40, "the vendored suite is missing"
    skips = _skips()
    passed, total, wrong = _run(files, skips)
    with capsys.disabled():
        print(f"\nJSON Schema Test Suite draft 2020-12, required: Python passed {passed} of "
              f"{total} cases ({len(skips)} skipped)")
    assert not wrong, "\n".join(wrong)
    assert passed + len(skips) == total


def test_optional_format_cases_are_advisory(capsys) -> None:
    files = sorted((SUITE / "tests" / "draft2020-12" / "optional" / "format").glob("*.json"))
    assert files
    passed, total, _wrong = _run(files, {})
    with capsys.disabled():
        print(f"\nadvisory: optional/format (format is an annotation): Python passed {passed} "
              f"of {total} cases")
    assert 0 < passed <= total


def test_optional_bignum_cases_pass(capsys) -> None:
    # Integers beyond 2^53 are exact in every language (Python's ints, Go's big.Int, the
    # TypeScript parser's bigints): the optional bignum cases must all pass.
    passed, total, wrong = _run([SUITE / "tests" / "draft2020-12" / "optional" / "bignum.json"], {})
    with capsys.disabled():
        print(f"\nJSON Schema Test Suite draft 2020-12, optional/bignum: Python passed {passed} "
              f"of {total} cases")
    assert not wrong, "\n".join(wrong)
    assert total >= 9


def test_a_skipped_case_that_passes_fails_the_run() -> None:
    path = SUITE / "tests" / "draft2020-12" / "maxLength.json"
    group = json.loads(path.read_text())[0]
    key = (path.relative_to(SUITE).as_posix(), group["description"],
           group["tests"][0]["description"])
    passed, total, wrong = _run([path], {key: "pretend"})
    assert passed == total - 1 and len(wrong) == 1 and "remove it" in wrong[0]


def test_suite_faults_match_the_go_oracle() -> None:
    # testsuites/json-schema-faults.json: the fault the Go SDK reports for every invalid
    # required case (written by sdk-go's TestValidatorMatchesOracleOnSuite); the fault
    # contract makes Python's the same, pointer, keyword and reason.
    want = json.loads((ROOT / "json-schema-faults.json").read_text(encoding="utf-8"))
    remotes = _remotes()
    got = []
    for path in sorted((SUITE / "tests" / "draft2020-12").glob("*.json")):
        rel = path.relative_to(SUITE).as_posix()
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            validator = compile_schema(group["schema"], documents=remotes,
                                       base_uri=f"http://localhost:1234/suite/{index}.json")
            for test in group["tests"]:
                found = validator.fault(test["data"])
                if found is not None:
                    got.append({"file": rel, "case": group["description"],
                                "test": test["description"], "pointer": found[0],
                                "keyword": found[1], "reason": found[2]})
    got.sort(key=lambda f: f"{f['file']}\0{f['case']}\0{f['test']}")
    assert len(want) > 500
    wrong = [f"got  {g}\nwant {w}" for g, w in zip(got, want, strict=False) if g != w]
    assert not wrong and len(got) == len(want), "\n".join(wrong[:20])
