"""KV migrations: @ext.migration steps run once before the first KV call (the Go SDK's
TestMigration* and the TypeScript migrate tests assert the same behaviour and messages)."""

from __future__ import annotations

import pytest

from octet_extension import KV_VERSION_KEY, Extension, MigrationTx
from octet_extension.testing import LoopbackHost, manifest_for

NS = "migr"


def migrating(declared: int) -> tuple[Extension, dict[str, object], list[str]]:
    ext = Extension()
    runs: list[str] = []

    @ext.tool(name="read_note", description="Read the note")
    def read_note(args: dict[str, object]) -> object:
        entry = ext.kv.get("note")
        return {"content": "ok", "structured_content": {"note": entry.get("value")}}

    manifest = manifest_for(ext, name=NS)
    manifest["state"] = {"kv_version": declared}
    return ext, manifest, runs


def note_to_object(runs: list[str]):
    def step(tx: MigrationTx) -> None:
        runs.append("ran")
        text = tx.get("note")
        if text is not None:
            tx.put("note", {"text": text})
    return step


def read(host: LoopbackHost) -> object:
    return host.call_tool("read_note")


def test_migration_runs_once_before_the_first_kv_call() -> None:
    ext, manifest, runs = migrating(2)
    ext.migration(from_version=1)(note_to_object(runs))
    with LoopbackHost(ext, manifest=manifest, name=NS) as host:
        host.kv[(NS, "note")] = "hello"  # version 1 data: no octet:kv_version
        for _ in range(2):
            assert read(host)["structured_content"] == {"note": {"text": "hello"}}
        assert runs == ["ran"]
        assert host.kv[(NS, KV_VERSION_KEY)] == 2


def test_up_to_date_runs_nothing() -> None:
    ext, manifest, runs = migrating(2)
    ext.migration(from_version=1)(note_to_object(runs))
    with LoopbackHost(ext, manifest=manifest, name=NS) as host:
        host.kv[(NS, "note")] = {"text": "new"}
        host.kv[(NS, KV_VERSION_KEY)] = 2
        assert read(host)["structured_content"] == {"note": {"text": "new"}}
        assert runs == []


def test_failure_keeps_the_old_data_and_retries() -> None:
    ext, manifest, runs = migrating(2)
    fail = [True]

    @ext.migration(from_version=1)
    def step(tx: MigrationTx) -> None:
        if fail[0]:
            tx.put("note", "half-done")
            raise RuntimeError("disk says no")
        note_to_object(runs)(tx)

    with LoopbackHost(ext, manifest=manifest, name=NS) as host:
        host.kv[(NS, "note")] = "hello"
        answer = host.request("tool/call", {"name": "read_note", "arguments": {}})
        # The same code, message and data as the Go and TypeScript SDKs answer.
        assert answer.error == {
            "code": -32603,
            "message": 'tool "read_note" failed: MigrationError: kv_migration_failed: '
                       "kv migration from version 1 to 2 failed: disk says no",
            "data": {"tool": "read_note", "exception": "MigrationError"}}, answer
        assert host.kv[(NS, "note")] == "hello" and (NS, KV_VERSION_KEY) not in host.kv
        fail[0] = False
        assert read(host)["structured_content"] == {"note": {"text": "hello"}}


def test_a_gap_is_named() -> None:
    ext, manifest, runs = migrating(3)
    ext.migration(from_version=1)(note_to_object(runs))
    with LoopbackHost(ext, manifest=manifest, name=NS) as host:
        host.kv[(NS, "note")] = "hello"
        answer = host.request("tool/call", {"name": "read_note", "arguments": {}})
        want = ('tool "read_note" failed: MigrationError: kv_migration_missing: no kv '
                "migration from version 2 to 3 is registered (stored kv_version 2, declared 3)")
        assert answer.error["message"] == want, answer
        assert host.kv[(NS, KV_VERSION_KEY)] == 2 and runs == ["ran"]


def test_a_race_leaves_the_other_generations_result() -> None:
    ext, manifest, _runs = migrating(2)
    holder: list[LoopbackHost] = []

    @ext.migration(from_version=1)
    def step(tx: MigrationTx) -> None:
        host = holder[0]  # another generation migrates between this read and the commit
        host.kv[(NS, "note")] = {"text": "theirs"}
        host.kv[(NS, KV_VERSION_KEY)] = 2
        tx.put("note", {"text": "mine"})

    with LoopbackHost(ext, manifest=manifest, name=NS) as host:
        holder.append(host)
        host.kv[(NS, "note")] = "hello"
        assert read(host)["structured_content"] == {"note": {"text": "theirs"}}


def test_registration_is_checked() -> None:
    ext = Extension()
    with pytest.raises(ValueError, match="start at version 1"):
        ext.migration(from_version=0)(lambda tx: None)
    ext.migration(from_version=1)(lambda tx: None)
    with pytest.raises(ValueError, match="twice"):
        ext.migration(from_version=1)(lambda tx: None)
    with pytest.raises(ValueError, match="version 1"):
        ext.migration(from_version=True)(lambda tx: None)
    with pytest.raises(ValueError):
        tx = MigrationTx(None, NS)  # type: ignore[arg-type]
        tx.put(KV_VERSION_KEY, 3)


@pytest.mark.parametrize("stored,shown", [("two", '"two"'), (1.5, "1.5"), (-1, "-1"),
                                          (True, "true"), ({"v": 2}, '{"v":2}')])
def test_a_stored_version_that_is_not_a_version_is_refused(stored: object, shown: str) -> None:
    ext, manifest, runs = migrating(2)
    ext.migration(from_version=1)(note_to_object(runs))
    with LoopbackHost(ext, manifest=manifest, name=NS) as host:
        host.kv[(NS, "note")] = "hello"
        host.kv[(NS, KV_VERSION_KEY)] = stored
        answer = host.request("tool/call", {"name": "read_note", "arguments": {}})
        assert answer.error["message"] == (
            'tool "read_note" failed: MigrationError: kv_migration_failed: kv migration from '
            f"version 0 to 2 failed: the stored octet:kv_version is {shown}, not a "
            "non-negative integer"), answer
        assert host.kv[(NS, "note")] == "hello" and runs == []


def test_concurrent_first_calls_run_the_step_once() -> None:
    ext, manifest, runs = migrating(2)
    ext.migration(from_version=1)(note_to_object(runs))
    with LoopbackHost(ext, manifest=manifest, name=NS, max_concurrent_requests=4) as host:
        host.kv[(NS, "note")] = "hello"
        pending = [host.start_tool("read_note") for _ in range(4)]
        for p in pending:
            assert p.wait().result["structured_content"] == {"note": {"text": "hello"}}
        assert runs == ["ran"]


def test_a_host_refusal_is_worded_as_everywhere() -> None:
    ext, manifest, _runs = migrating(2)
    ext.migration(from_version=1)(lambda tx: tx.put("note", 1, namespace="someone-else"))
    with LoopbackHost(ext, manifest=manifest, name=NS) as host:
        answer = host.request("tool/call", {"name": "read_note", "arguments": {}})
        assert answer.error["message"].startswith(
            'tool "read_note" failed: MigrationError: kv_migration_failed: kv migration from '
            "version 1 to 2 failed: host error -32602: "), answer
