"""Tool-call round trip: the Python SDK (the conformance fixture's `echo`) against a minimal
hand-written JSON-lines echo (floor.py), both driven as subprocesses by the same tiny driver,
interleaved in rounds so machine noise hits both alike.

    python sdk-python/bench/roundtrip.py [--rounds 20] [--calls 250]

Prints p50/p99 per target in microseconds and the SDK/floor ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
FIXTURE = REPO / "examples" / "python" / "conformance-fixture"


class Driver:
    """Spawn an extension, initialize it, then time sequential echo calls."""

    def __init__(self, argv: list[str], manifest: dict, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, cwd=REPO)
        assert self.proc.stdin and self.proc.stdout
        self.fd = self.proc.stdin.fileno()
        self.readline = self.proc.stdout.readline
        self.next_id = 1
        self.request("initialize", {
            "api_version": "0.4", "octet_version": "0.8.0",
            "extension": {"name": manifest["name"], "version": manifest["version"],
                          "dir": str(FIXTURE), "manifest_path": "", "source": "explicit"},
            "manifest": manifest, "workspace": {"root": str(REPO), "trusted": True},
            "protocol": {"version": "0.4",
                         "required_features": ["request_cancellation", "content_parts"],
                         "optional_features": [], "limits": {"max_concurrent_requests": 4}},
        })

    def request(self, method: str, params: dict) -> dict:
        rid = self.next_id
        self.next_id += 1
        os.write(self.fd, json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                      "params": params}, separators=(",", ":")).encode() + b"\n")
        while True:
            msg = json.loads(self.readline())
            if msg.get("id") == rid and "method" not in msg:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg

    def time_calls(self, n: int) -> list[float]:
        samples = []
        params = {"name": "echo", "arguments": {"value": 1}}
        for _ in range(n):
            start = time.perf_counter()
            self.request("tool/call", params)
            samples.append(time.perf_counter() - start)
        return samples

    def cpu_seconds(self) -> float:
        """User + system CPU the extension process has used so far (Linux /proc)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.request("shutdown", {})
        self.proc.stdin.close()  # type: ignore[union-attr]
        self.proc.wait(10)


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--calls", type=int, default=250)
    args = parser.parse_args()
    with open(FIXTURE / "extension.toml", "rb") as f:
        manifest = tomllib.load(f)
    python = os.environ.get("OCTET_PYTHON", sys.executable)
    env = {**os.environ, "OCTET_EXTENSION_API_VERSION": "0.4", "OCTET_PYTHON": python,
           "PYTHONPATH": str(REPO / "sdk-python" / "src")}
    targets = {
        "sdk": Driver([str(FIXTURE / "run")], manifest, env),
        "floor": Driver([python, str(HERE / "floor.py")], manifest, env),
    }
    samples: dict[str, list[float]] = {name: [] for name in targets}
    for driver in targets.values():
        driver.time_calls(200)  # warm up: imports, caches, branch predictors
    cpu_start = {name: driver.cpu_seconds() for name, driver in targets.items()}
    for _ in range(args.rounds):
        for name, driver in targets.items():
            samples[name].extend(driver.time_calls(args.calls))
    cpu = {name: (driver.cpu_seconds() - cpu_start[name]) / len(samples[name]) * 1e6
           for name, driver in targets.items()}
    for driver in targets.values():
        driver.close()
    print(f"tool-call round trip, {args.rounds} x {args.calls} calls per target, interleaved")
    print(f"{'target':<8}{'p50 us':>10}{'p99 us':>10}{'cpu us/call':>14}")
    for name, values in samples.items():
        print(f"{name:<8}{pct(values, 50):>10.1f}{pct(values, 99):>10.1f}{cpu[name]:>14.1f}")
    ratio50 = pct(samples["sdk"], 50) / pct(samples["floor"], 50)
    ratio99 = pct(samples["sdk"], 99) / pct(samples["floor"], 99)
    print(f"sdk/floor: p50 {ratio50:.2f}x, p99 {ratio99:.2f}x")


if __name__ == "__main__":
    main()
