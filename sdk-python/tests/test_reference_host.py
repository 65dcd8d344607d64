"""The Python examples through the Go reference host (`octet-host call`).

Skipped only when the host package or the Go toolchain is absent (the host is built by
another part of the kit).
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from helpers import EXAMPLES, REPO

HOST_PKG = REPO / "host" / "cmd" / "octet-host"

pytestmark = pytest.mark.skipif(
    not HOST_PKG.is_dir() or shutil.which("go") is None,
    reason="the Go reference host (host/cmd/octet-host) or go is not available",
)


@pytest.fixture(scope="module")
def octet_host(tmp_path_factory):
    binary = tmp_path_factory.mktemp("host") / "octet-host"
    subprocess.run(["go", "build", "-o", str(binary), "./host/cmd/octet-host"], cwd=REPO,
                   check=True, timeout=600)
    return binary


def call(octet_host, example, *args):
    proc = subprocess.run([str(octet_host), "call", str(EXAMPLES / example), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]


def test_hello_world_through_the_reference_host(octet_host) -> None:
    code, lines = call(octet_host, "hello-world", "hello_world", '{"name":"Ada"}')
    assert (code, lines) == (0, [{"content": [{"type": "text", "text": "Hello, Ada!"}]}])


def test_fixture_through_the_reference_host(octet_host) -> None:
    code, lines = call(
        octet_host, "conformance-fixture",
        "typed", '{"count":3,"label":"x"}',
        "typed", '{"count":"3","label":"x"}',
        "print_stdout", '{"text":"stray"}',
        "progress_n", '{"n":2}',
        "register_dynamic", '{"name":"dyn","text":"hi"}', "dyn",
        "big_result", '{"bytes":2000000}',
        "fail_with", '{"code":12,"message":"m","data":null}',
    )
    assert code == 1  # some calls fail on purpose
    assert lines[0] == {"content": [{"type": "text", "text": "x:3"}],
                        "structured_content": {"count": 3}}
    # The host judges arguments against the catalog before sending: the extension never
    # sees arguments its own schema forbids.
    assert lines[1]["error"]["kind"] == "arguments_refused"
    assert lines[1]["error"]["pointer"] == "/count"
    assert lines[2]["content"][0]["text"] == "printed"
    assert lines[3]["content"][0]["text"] == "done"
    assert lines[4]["structured_content"] == {"revision": 1}
    assert lines[5]["content"][0]["text"] == "hi"
    assert lines[6]["error"]["code"] == -32603
    assert lines[7]["error"] == {"kind": "rpc", "code": 12, "message": "m", "data": None}
