"""Run an extension against a scripted host: in-process (``LoopbackHost``) or as a real
subprocess (``ProcessHost``). Both record every frame and answer every reverse service from
in-memory scripts, so tests can assert exact wire behaviour.

    from octet_extension.testing import LoopbackHost

    with LoopbackHost(ext, secrets={"app.token": "s3cret"}) as host:
        assert host.call_tool("hello_world", {"name": "Ada"})["content"][0]["text"] == ...
"""

from __future__ import annotations

from ._hosts import LoopbackHost, ProcessHost
from ._scripted import ALL_OPTIONAL as ALL_OPTIONAL
from ._scripted import REQUIRED as REQUIRED
from ._scripted import Response, manifest_for
from ._services import NO_REPLY, HostError
from ._services import Script as Script

__all__ = ["NO_REPLY", "HostError", "LoopbackHost", "ProcessHost", "Response", "manifest_for"]
