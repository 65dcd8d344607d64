package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

// TestCallIdempotencyKey: a call with a key records its result; the same call with the key
// in a new host process (a restart over the same state store) replays it without calling
// the extension (the pid is the first process's), the same key with other arguments fails
// as idempotency_conflict, and a new key calls again.
func TestCallIdempotencyKey(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "idem"})
	call := func(key, args string) (int, string) {
		t.Helper()
		// Unconfined: in the sandbox's PID namespace every process is the same small pid,
		// and the pid is what tells a replayed result from a new call here.
		code, out, errOut := octetHost(t, "", "call", "--no-sandbox", "--state", e.state, "--config", e.config, "--idempotency-key", key, dir, "pid", args)
		if code == exitStartup {
			t.Fatalf("call: %d\n%s%s", code, out, errOut)
		}
		return code, strings.TrimSpace(out)
	}
	code, first := call("order-1", `{"a": 1, "b": [1, 2]}`)
	if code != exitOK || !strings.Contains(first, `"text"`) {
		t.Fatalf("first call: %d %s", code, first)
	}
	// The same arguments written differently (key order, spacing) are the same call.
	if code, again := call("order-1", `{"b":[1,2],"a":1}`); code != exitOK || again != first {
		t.Fatalf("retry after a restart: %d %s, want the recorded %s", code, again, first)
	}
	code, conflict := call("order-1", `{"a": 2, "b": [1, 2]}`)
	var line struct {
		Error struct{ Kind, Key string }
	}
	if code != exitFailed || json.Unmarshal([]byte(conflict), &line) != nil || line.Error.Kind != "idempotency_conflict" || line.Error.Key != "order-1" {
		t.Fatalf("same key, other input: %d %s", code, conflict)
	}
	if code, fresh := call("order-2", `{"a": 1, "b": [1, 2]}`); code != exitOK || fresh == first {
		t.Fatalf("a new key must call again: %d %s (first %s)", code, fresh, first)
	}
	if code, _, errOut := octetHost(t, "", "call", "--state", e.state, "--idempotency-key", "k", dir, "pid", "pid"); code != exitStartup || !strings.Contains(errOut, "exactly one TOOL") {
		t.Fatalf("two tools with one key: %d %s", code, errOut)
	}
}
