package conformance

import (
	"strings"
	"testing"
)

func TestCoversNameRealRequirements(t *testing.T) {
	if bad := unknownCovers(); len(bad) > 0 {
		t.Fatalf("checks cover requirement ids the method registry does not have:\n%s", strings.Join(bad, "\n"))
	}
	reqs := Requirements()
	if len(reqs) < 40 {
		t.Fatalf("only %d requirements read from schema/methods.json", len(reqs))
	}
	if len(Gaps()) >= len(reqs) {
		t.Fatal("no requirement is covered")
	}
}

func TestFormatGapsGroupsByMethod(t *testing.T) {
	got := FormatGaps([]Requirement{
		{ID: "kv.list", Method: "kv.list"}, {ID: "kv.list error -32602", Method: "kv.list"},
		{ID: "hook/run cancellable", Method: "hook/run"}, {ID: "hook/run error -32800", Method: "hook/run"},
	})
	want := "kv.list (untested); hook/run (cancellable, error -32800)"
	if got != want {
		t.Fatalf("FormatGaps = %q, want %q", got, want)
	}
}
