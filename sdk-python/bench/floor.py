"""The floor: a minimal hand-written Python JSON-lines echo extension (no SDK).

It answers initialize and tool/call one at a time with one write per answer: what a
round trip costs with no machinery at all.
"""

import json
import sys

out = sys.stdout.buffer
for line in sys.stdin.buffer:
    msg = json.loads(line)
    method = msg.get("method")
    if method == "initialize":
        result = {"api_version": msg["params"]["api_version"], "name": "floor",
                  "version": "0.1.0", "tools": [], "commands": []}
    elif method == "tool/call":
        value = msg["params"]["arguments"].get("value")
        result = {"content": [{"type": "text", "text": "echo"}],
                  "structured_content": {"value": value}}
    elif method == "shutdown":
        out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {}}).encode() + b"\n")
        out.flush()
        break
    else:
        continue
    out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result},
                         separators=(",", ":")).encode() + b"\n")
    out.flush()
