package main

import (
	"strings"
	"testing"
)

// TestServicesMatchTheSchema: the Go SDK's service objects offer exactly the operations of
// methods.json's sdk rows plus sdk-surface.json's conveniences, with the same positional
// arguments in the same order (snake_case; ctx and options excluded): no more, no less.
func TestServicesMatchTheSchema(t *testing.T) {
	got, err := Read("../..")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Expected("../../../schema")
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(got, want); len(d) > 0 {
		t.Fatalf("the Go SDK's surface differs from the schema:\n%s", strings.Join(d, "\n"))
	}
	if n := len(got["kv"]); n != 7 {
		t.Fatalf("kv has %d operations, want get, list, commit, scan, put, delete, transaction", n)
	}
}

// TestDiffRefusesARenameOrASwap: the comparison the parity test relies on sees an operation
// renamed and two arguments swapped.
func TestDiffRefusesARenameOrASwap(t *testing.T) {
	want, err := Expected("../../../schema")
	if err != nil {
		t.Fatal(err)
	}
	clone := func() Surface {
		c := Surface{}
		for s, ops := range want {
			c[s] = map[string][]string{}
			for o, a := range ops {
				c[s][o] = append([]string{}, a...)
			}
		}
		return c
	}
	renamed := clone()
	renamed["kv"]["fetch"] = renamed["kv"]["get"]
	delete(renamed["kv"], "get")
	if d := Diff(renamed, want); len(d) != 2 || !strings.Contains(strings.Join(d, "\n"), "kv.get") {
		t.Errorf("a renamed operation: %q", d)
	}
	swapped := clone()
	a := swapped["agents"]["spawn"]
	a[0], a[1] = a[1], a[0]
	if d := Diff(swapped, want); len(d) != 1 || !strings.Contains(d[0], "agents.spawn") {
		t.Errorf("swapped arguments: %q", d)
	}
	if d := Diff(clone(), want); len(d) != 0 {
		t.Errorf("an identical surface differs: %q", d)
	}
}

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{"KV": "kv", "UI": "ui", "FollowUp": "follow_up", "taskName": "task_name", "RequestInput": "request_input", "Get": "get", "ContributeStatus": "contribute_status"} {
		if got := Snake(in); got != want {
			t.Errorf("Snake(%q) = %q, want %q", in, got, want)
		}
	}
}
