"""The two scripted hosts: the extension in this process, or as a real subprocess."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._errors import RemoteError
from .._extension import Extension
from ._scripted import _ScriptedHost, manifest_for


class LoopbackHost(_ScriptedHost):
    """Serve ``ext`` in this process over a pair of pipes (its real reader/writer threads)."""

    def __init__(self, ext: Extension, *, secret_names: Iterable[str] | None = None,
                 name: str = "test-extension", **options: Any) -> None:
        super().__init__(**options)
        self.ext = ext
        if self.manifest is None:
            names = secret_names if secret_names is not None else self.secrets.keys()
            self.manifest = manifest_for(ext, name=name, api_version=self.api_version,
                                         secrets=names)
        self.exit_code: int | None = None
        self._serve_thread: threading.Thread | None = None
        self._fds: list[int] = []

    def __enter__(self) -> LoopbackHost:
        ext_in, host_out = os.pipe()
        host_in, ext_out = os.pipe()
        self._fds = [ext_in, ext_out, host_in]

        def serve() -> None:
            try:
                self.exit_code = self.ext.serve(ext_in, ext_out, api_version=self.api_version)
            finally:
                os.close(ext_out)  # EOF for the host reader

        self._serve_thread = threading.Thread(target=serve, name="loopback-extension",
                                              daemon=True)
        self._serve_thread.start()
        self._attach(host_out, host_in)
        if self.auto_initialize:
            response = self.initialize()
            if response.error is not None:
                self.__exit__(None, None, None)
                raise RemoteError(response.error["code"], response.error["message"],
                                  response.error.get("data"))
        return self

    def wait_exit(self, timeout: float | None = None) -> int | None:
        """Wait for the extension's serve() to return; its exit code (None if still running)."""
        assert self._serve_thread is not None
        self._serve_thread.join(self.timeout if timeout is None else timeout)
        return None if self._serve_thread.is_alive() else self.exit_code

    def __exit__(self, *_: Any) -> None:
        self.close_stdin()
        self.wait_exit()
        if self._read_thread is not None:
            self._read_thread.join(self.timeout)
        session = self.ext._session
        if session is not None:
            # EOF reached its reader (close_stdin); wait for it before closing its fd, or a
            # later pipe could reuse the number under a still-running reader.
            session.reader_thread.join(self.timeout)
            if session.reader_thread.is_alive():
                return  # leak the fds rather than risk that
        for fd in self._fds:
            if fd != self._fds[1]:
                with contextlib.suppress(OSError):
                    os.close(fd)


class ProcessHost(_ScriptedHost):
    """Run an extension as a subprocess (``argv`` in ``cwd``) and drive its stdio."""

    def __init__(self, argv: Sequence[str], *, cwd: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.argv = list(argv)
        self.cwd = cwd
        self.env = dict(os.environ if env is None else env)
        self.env.setdefault("OCTET_EXTENSION_API_VERSION", self.api_version)
        if self.scratch_dir is not None:
            self.env.setdefault("OCTET_EXTENSION_SCRATCH", str(self.scratch_dir))
        self.process: subprocess.Popen[bytes] | None = None
        self.stderr_lines: list[str] = []

    def __enter__(self) -> ProcessHost:
        self.process = subprocess.Popen(
            self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        self._attach(self.process.stdin.fileno(), self.process.stdout.fileno())
        if self.auto_initialize:
            response = self.initialize()
            if response.error is not None:
                self.__exit__(None, None, None)
                raise RemoteError(response.error["code"], response.error["message"],
                                  response.error.get("data"))
        return self

    def _drain_stderr(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace"))

    def close_stdin(self) -> None:
        if self.process is not None and self.process.stdin and not self.process.stdin.closed:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        self._to_ext = -1

    def wait_exit(self, timeout: float | None = None) -> int | None:
        assert self.process is not None
        try:
            code = self.process.wait(self.timeout if timeout is None else timeout)
        except subprocess.TimeoutExpired:
            return None
        # Everything the process wrote to stderr is in stderr_lines once this returns.
        self._stderr_thread.join(self.timeout)
        return code

    def __exit__(self, *_: Any) -> None:
        if self.process is None:
            return
        self.close_stdin()
        if self.wait_exit() is None:
            self.process.kill()
            self.process.wait()
        if self._read_thread is not None:
            self._read_thread.join(self.timeout)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
