package conformance

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// ToolReport is one tool's outcome over every check that called it.
type ToolReport struct {
	Name   string
	Status Status // pass, fail, skip (the [certify] reason in Reason) or error
	Reason string // skip: why the tool was not called
	Calls  int
	Passed int
	Failed int
	// Checks maps each check that tallied the tool to its verdict for the tool.
	Checks map[string]Status
	// Failure is the first failed call (arguments, answer, replay command, frames, stderr).
	Failure string
}

// Tools aggregates the per-tool tallies of every result, sorted by tool name.
func (r *Report) Tools() []ToolReport {
	byName := map[string]*ToolReport{}
	var names []string
	for _, x := range r.Results {
		for _, tc := range x.Tools {
			tr := byName[tc.Tool]
			if tr == nil {
				tr = &ToolReport{Name: tc.Tool, Checks: map[string]Status{}}
				byName[tc.Tool] = tr
				names = append(names, tc.Tool)
			}
			tr.Calls += tc.Calls
			tr.Passed += tc.Passed
			tr.Failed += tc.Failed
			switch {
			case tc.Skipped != "":
				tr.Reason = tc.Skipped
				tr.Checks[x.Check.Name] = Skip
			case x.Status == Error:
				tr.Checks[x.Check.Name] = Error
			case tc.Failed > 0:
				tr.Checks[x.Check.Name] = Fail
				if tr.Failure == "" {
					tr.Failure = tc.Failure
				}
			default:
				tr.Checks[x.Check.Name] = Pass
			}
		}
	}
	slices.Sort(names)
	out := make([]ToolReport, 0, len(names))
	for _, n := range names {
		tr := byName[n]
		statuses := make([]Status, 0, len(tr.Checks))
		for _, s := range tr.Checks {
			statuses = append(statuses, s)
		}
		switch {
		case tr.Reason != "":
			tr.Status = Skip
		case slices.Contains(statuses, Fail):
			tr.Status = Fail
		case slices.Contains(statuses, Error):
			tr.Status = Error
		case tr.Calls == 0:
			tr.Status, tr.Reason = Skip, "no call could be generated from its parameters schema"
		default:
			tr.Status = Pass
		}
		out = append(out, *tr)
	}
	return out
}

// Calls counts the calls of the extension's tools and how many passed.
func (r *Report) Calls() (calls, passed int) {
	for _, t := range r.Tools() {
		calls += t.Calls
		passed += t.Passed
	}
	return calls, passed
}

// writeTools prints the per-tool table: status, name, calls and the checks that failed it
// (or why it was skipped).
func writeTools(w io.Writer, r *Report) {
	tools := r.Tools()
	if len(tools) == 0 {
		return
	}
	width := 0
	for _, t := range tools {
		width = max(width, len(t.Name))
	}
	fmt.Fprintf(w, "\n  tools (called by the tools.* checks with generated arguments):\n")
	for _, t := range tools {
		var what string
		switch t.Status {
		case Skip:
			what = "skipped: " + t.Reason
		default:
			what = fmt.Sprintf("%d calls, %d passed", t.Calls, t.Passed)
			var failing []string
			for c, s := range t.Checks {
				if s == Fail || s == Error {
					failing = append(failing, c)
				}
			}
			slices.Sort(failing)
			if len(failing) > 0 {
				what += "; failed " + strings.Join(failing, ", ")
			}
		}
		fmt.Fprintf(w, "    %-5s %-*s  %s\n", strings.ToUpper(string(t.Status)), width, t.Name, oneLine(what, 120))
	}
}

// toolCounts summarises the tools line of a report's totals.
func toolCounts(r *Report) string {
	tools := r.Tools()
	if len(tools) == 0 {
		return ""
	}
	n := map[Status]int{}
	for _, t := range tools {
		n[t.Status]++
	}
	calls, passed := r.Calls()
	s := fmt.Sprintf("; tools: %d passed, %d failed, %d skipped", n[Pass], n[Fail], n[Skip])
	if n[Error] > 0 {
		s += fmt.Sprintf(", %d errored", n[Error])
	}
	return s + fmt.Sprintf("; %d tool calls, %d passed", calls, passed)
}

// JSONTool is one tool's outcome in a JSONReport.
type JSONTool struct {
	Name    string            `json:"name"`
	Status  Status            `json:"status"`
	Reason  string            `json:"reason,omitempty"`
	Calls   int               `json:"calls"`
	Passed  int               `json:"passed"`
	Failed  int               `json:"failed"`
	Checks  map[string]Status `json:"checks"`
	Failure string            `json:"failure,omitempty"`
}

func toJSONTools(r *Report) []JSONTool {
	out := []JSONTool{}
	for _, t := range r.Tools() {
		out = append(out, JSONTool{Name: t.Name, Status: t.Status, Reason: t.Reason, Calls: t.Calls, Passed: t.Passed,
			Failed: t.Failed, Checks: t.Checks, Failure: t.Failure})
	}
	return out
}
