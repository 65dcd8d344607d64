"""capture: seed 001's structured-results and artifact examples.

There is no browser here: the "screenshot" is a tiny generated PNG, so the example runs
anywhere and the host can verify a real PNG signature.
"""

import base64
import hashlib
import os
import struct
import uuid
import zlib
from pathlib import Path

from octet_extension import Extension, image_content, text_content, tool_result

ext = Extension()


def png(width: int = 2, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff\x80\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


image_bytes = png()


@ext.tool(
    name="capture",
    description="Capture a screenshot",
    parameters={"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
    output_schema={
        "type": "object",
        "properties": {"url": {"type": "string"}},
        "required": ["url"],
    },
)
def capture(args):
    inline = base64.b64encode(image_bytes).decode("ascii")
    artifact_id = ext.artifacts.publish(mime_type="image/png", data=inline)["artifact_id"]
    return tool_result(
        text_content("Captured the page."),
        image_content(artifact_id, "image/png", alt="Page after submit"),
        structured_content={"url": args["url"]},
        metadata={"cache": "miss"},
    )


@ext.tool(
    name="capture_file",
    description="Capture to a scratch file and publish it by path",
    # Bounded: the image has size × size pixels.
    parameters={"type": "object", "properties": {"size": {"type": "integer", "minimum": 1, "maximum": 512}}},
)
def capture_file(args):
    # Large captures go through OCTET_EXTENSION_SCRATCH: the host opens and verifies the file.
    # One file per call: calls run concurrently, and the host reads the file when it verifies.
    scratch = Path(os.environ["OCTET_EXTENSION_SCRATCH"])
    relative = f"captures/{uuid.uuid4().hex}.png"
    target = scratch / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    data = png(args.get("size", 2), args.get("size", 2))
    target.write_bytes(data)
    byte_count, digest = len(data), hashlib.sha256(data).hexdigest()
    artifact_id = ext.artifacts.publish(
        mime_type="image/png",
        path=relative,
        size=byte_count,
        sha256=digest,
    )["artifact_id"]
    return tool_result(text_content(f"Captured {byte_count} bytes."),
                       image_content(artifact_id, "image/png"))


ext.run()
