"""The Python side of the cross-language differential fuzz (codegen/cmd/octet-fuzzdiff).

Reads cases as JSON lines on stdin and writes one verdict line per case on stdout:
``decode`` runs the generated strict decoder (``_generated._models.parse_strict``),
``frame`` the wire frame decoder (``_codec.loads``), ``validate`` strict decoding then the
generated checker of the named type. An accepted document is reported by the hash of its
canonical form, written exactly as the Go driver's canon.go (sdk-go/internal/fuzzdiffdriver)
writes it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import sys
from typing import Any

from octet_extension import _codec
from octet_extension._generated import _models


def _canon(v: Any, out: list[str]) -> None:
    if v is None:
        out.append("n")
    elif v is True:
        out.append("t")
    elif v is False:
        out.append("f")
    elif isinstance(v, (int, float)):
        f = float(v)  # an integer beyond float64 raises OverflowError: reported as a crash
        if f == 0:
            f = 0.0
        out.append("d" + format(struct.unpack(">Q", struct.pack(">d", f))[0], "x"))
    elif isinstance(v, str):
        out.append("s" + v.encode("utf-8").hex())
    elif isinstance(v, list):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _canon(x, out)
        out.append("]")
    elif isinstance(v, dict):
        out.append("{")
        items = sorted((k.encode("utf-8"), x) for k, x in v.items())
        for i, (k, x) in enumerate(items):
            if i:
                out.append(",")
            out.append(k.hex() + ":")
            _canon(x, out)
        out.append("}")
    else:
        out.append("?")


def canonical(v: Any) -> str:
    parts: list[str] = []
    _canon(v, parts)
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]


def judge(case: dict[str, Any]) -> tuple[str, str]:
    data = base64.b64decode(case["data"])
    kind = case["kind"]
    try:
        if kind == "frame":
            value = _codec.loads(data)
        else:
            value = _models.parse_strict(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:  # StrictJSONError is a ValueError
        return "refused", f"{type(e).__name__}: {e}"
    if kind != "validate":
        return "ok:" + canonical(value), ""
    errs = _models.validate(case["type"], value)
    return ("invalid", "; ".join(errs)) if errs else ("valid", "")


def main() -> None:
    for line in sys.stdin.buffer:
        case = json.loads(line)
        try:
            verdict, detail = judge(case)
        except Exception as e:  # a crash is a verdict of its own: it disagrees with the others
            verdict, detail = "crash", f"{type(e).__name__}: {e}"
        line = json.dumps({"id": case["id"], "verdict": verdict, "detail": detail})
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
