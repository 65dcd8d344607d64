package e2e

import (
	"encoding/json"
	"testing"
)

// goodObservation is what a client that does everything in matrixPlan reports.
func goodObservation() observed {
	o := observed{Tools: []obsTool{{"hello_world", false}, {"area", true}, {"fetch_many", false}, {"route", false}, {"ask", false}}}
	o.Calls = []obsCall{
		{Tool: "hello_world", Text: "Hello, Ada!"},
		{Tool: "hello_world", IsError: true, Text: "invalid arguments at /name"},
		{Tool: "area", Structured: json.RawMessage(`{"area": 6}`)},
		{Tool: "fetch_many", Text: "record:x\nrecord:y", Progress: 2},
		{Tool: "fetch_many", Cancelled: 1, Progress: 1},
		{Tool: "fetch_many", Text: "record:z"},
		{Tool: "ask", Structured: json.RawMessage(`{"answer": "Grace"}`), Elicited: 1},
	}
	return o
}

// TestMatrixCellsCanFail: each column of the matrix turns ✗ when the client saw what a broken
// gateway would give it, so a green table means what it says.
func TestMatrixCellsCanFail(t *testing.T) {
	for i, c := range cells(goodObservation()) {
		if c != "✓" {
			t.Fatalf("column %d of a good observation: %q", i+1, c)
		}
	}
	for _, tc := range []struct {
		name    string
		column  int
		breakIt func(*observed)
	}{
		{"ask not listed", 0, func(o *observed) { o.Tools = o.Tools[:4] }},
		{"cancelled call still answered", 5, func(o *observed) { o.Calls[4].Cancelled, o.Calls[4].Text = 0, "record:a" }},
		{"cancel reported but a result came", 5, func(o *observed) { o.Calls[4].Text = "record:a" }},
		{"session dead after the cancel", 5, func(o *observed) { o.Calls[5].Error, o.Calls[5].Text = &obsError{Message: "closed"}, "" }},
		{"no elicitation reached the client", 6, func(o *observed) { o.Calls[6].Elicited = 0 }},
		{"the answer was not delivered", 6, func(o *observed) { o.Calls[6].Structured = json.RawMessage(`{"answer": null}`) }},
		{"elicited twice", 6, func(o *observed) { o.Calls[6].Elicited = 2 }},
		{"progress without notifications", 4, func(o *observed) { o.Calls[3].Progress = 0 }},
	} {
		o := goodObservation()
		tc.breakIt(&o)
		if got := cells(o)[tc.column]; got != "✗" {
			t.Errorf("%s: column %d is %q, want ✗", tc.name, tc.column+1, got)
		}
	}
	// A client without the capability is marked as such, not passed or failed.
	o := goodObservation()
	o.Calls[4] = obsCall{Tool: "fetch_many", Cancelled: -1}
	o.Calls[6] = obsCall{Tool: "ask", Structured: json.RawMessage(`{"answer":null}`), Elicited: -1}
	got := cells(o)
	if got[5][0:3] != "—" || got[6][0:3] != "—" {
		t.Errorf("a client without cancellation or elicitation: %q, %q", got[5], got[6])
	}
}
