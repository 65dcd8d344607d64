"""Start-up cost: the import path stays free of the heavy standard-library modules.

Cold start (spawn to the initialize answer) is a benchmark target (docs/benchmarks.md); each
module below costs milliseconds of every extension's start and is needed only on first use.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
HEAVY = ["typing", "dataclasses", "inspect", "ast", "datetime", "traceback", "base64",
         # standard-library modules the floor does not load and a start does not need
         "math", "warnings", "errno", "contextlib", "collections.abc",
         "octet_extension._kv",
         # schema keyword groups a schema without applicators, arrays or patterns never needs
         "octet_extension._jsonschema._kw_apply", "octet_extension._jsonschema._kw_array",
         "octet_extension._jsonschema._regex",
         # generated modules _generated._models re-exports lazily (a tool-only extension needs none)
         "octet_extension._generated.agents", "octet_extension._generated.presentation",
         "octet_extension._generated.hooks", "octet_extension._generated.kv",
         "octet_extension._generated.manifest", "octet_extension._generated.host_methods"]


def test_import_and_registration_load_no_heavy_modules() -> None:
    code = (
        "import json, sys\n"
        "from octet_extension import Extension, tool_result\n"
        "ext = Extension(api_version='0.4')\n"
        "@ext.tool(name='echo', description='d', parameters={'type': 'object'})\n"
        "def echo(args, context):\n"
        "    return tool_result('x')\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, timeout=60)
    assert json.loads(out.stdout) == []


def test_type_specs_are_decoded_on_first_use() -> None:
    # The generated specs stay JSON text until a check reaches their type (_strict._spec).
    # A fresh interpreter: in this one another test may already have checked the type.
    code = (
        "import json\n"
        "from octet_extension import _strict\n"
        "from octet_extension._generated import _models\n"
        "_models.type_names()\n"
        "before = type(_strict._SPECS['Activity']).__name__\n"
        "problems = _models.validate('Activity', {'id': 'a', 'label': 'x', 'state': 'nope'})\n"
        "after = type(_strict._SPECS['Activity']).__name__\n"
        "print(json.dumps([before, after, problems]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, timeout=60)
    assert json.loads(out.stdout) == ["str", "dict", [
        "$.state: want one of empty, loading, pending, active, running, succeeded, failed, "
        "cancelled, degraded, stopped, unavailable"]]


def test_kv_types_still_import_from_the_package() -> None:
    # They load lazily (PEP 562 __getattr__); the public names must keep working.
    from octet_extension import KV, KVTransaction

    assert KV.__name__ == "KV" and KVTransaction.__name__ == "KVTransaction"


def test_import_leaves_the_garbage_collector_as_it_found_it() -> None:
    # The package pauses collection while its modules load; it must give back the state it
    # found, enabled or not.
    for before in ("enable", "disable"):
        code = f"import gc\ngc.{before}()\nimport octet_extension\nprint(gc.isenabled())\n"
        env = {**os.environ, "PYTHONPATH": str(SRC)}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True, timeout=60)
        assert out.stdout.strip() == str(before == "enable")


def test_lazy_model_names_resolve_and_unknown_ones_fail() -> None:
    from octet_extension._generated import _models

    assert _models.validate_short_id("a") == []
    assert _models.validate_short_id("") != []
    assert "validate_snapshot" in dir(_models)
    try:
        _models.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")
