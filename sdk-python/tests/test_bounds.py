"""Bounded memory for hostile frames, measured rather than timed: the frame decoder runs in a
child interpreter whose address space is capped (RLIMIT_AS), as the Go host's bound tests cap
theirs (schema MAX_JSON_DEPTH)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

resource = pytest.importorskip("resource")

_CHILD = r"""
import json, resource, sys
with open("/proc/self/status") as f:
    size = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
budget = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (size + budget, size + budget))
from octet_extension import _codec
n = 500_000
frame = (b'{"jsonrpc":"2.0","id":1,"method":"tool/call",'
         b'"params":{"name":"echo","arguments":{"value":' + b"[" * n + b"]" * n + b"}}}")
try:
    _codec.loads(frame)
    out = {"accepted": True}
except ValueError as exc:
    envelope = _codec.lenient(frame)
    out = {"message": str(exc), "envelope": envelope[0] if envelope else None}
print(json.dumps(out))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_a_frame_nested_past_the_bound_is_refused_within_a_capped_address_space() -> None:
    # 32 MiB beyond the interpreter's own start: building the 500,000-level value (json.loads
    # recursing per level) would need far more; the pre-scan needs the frame and a few tokens.
    done = subprocess.run([sys.executable, "-c", _CHILD, str(32 << 20)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {
        "message": "nesting deeper than 128 levels (MAX_JSON_DEPTH) at byte 215",
        "envelope": {"jsonrpc": "2.0", "id": 1, "method": "tool/call"},
    }
