package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/octet-kit/octet/host/process"
)

// WriteText renders a report for people: one line per check (result, name, tier,
// duration, detail) and, for a failure, what was expected, the frames exchanged
// and the last lines of stderr; then each tool the tools.* checks called.
func WriteText(w io.Writer, r *Report) error {
	WriteHeader(w, r)
	if r.LoadError != "" {
		fmt.Fprintf(w, "  FAIL  manifest: %s\n", indent(r.LoadError, "        "))
		return nil
	}
	for _, x := range r.Results {
		WriteResult(w, x)
	}
	return WriteTail(w, r)
}

// WriteHeader prints the report's first line: the extension, its language and directory.
func WriteHeader(w io.Writer, r *Report) {
	lang := r.Language
	if lang == "" {
		lang = "unknown language"
	}
	fmt.Fprintf(w, "%s (%s) %s\n", r.Extension, lang, r.Dir)
}

// nameWidth aligns check names in columns without buffering, so each line can be printed
// as its check finishes.
func nameWidth() int {
	n := 0
	for _, c := range registry {
		n = max(n, len(c.Name))
	}
	return n
}

// WriteResult prints one check's line; certify calls it as each check finishes.
func WriteResult(w io.Writer, x Result) {
	fmt.Fprintf(w, "  %-4s  %-*s  %-11s  %-7s  %s\n", strings.ToUpper(string(x.shown())), nameWidth(), x.Check.Name, x.Check.Tier,
		roundDuration(x.Duration), oneLine(x.Detail, 110))
}

// WriteTail prints what follows the check lines: each failure's evidence, the tools
// table and the totals.
func WriteTail(w io.Writer, r *Report) error {
	if r.LoadError != "" {
		return nil
	}
	for _, x := range r.Results {
		if x.Status != Fail && x.Status != Error {
			continue
		}
		if x.Check.Tier == Advisory {
			fmt.Fprintf(w, "\n  %s: advisory, does not fail certification\n", x.Check.Name)
		}
		fmt.Fprintf(w, "\n  %s failed (%s: %s)\n", x.Check.Name, x.Check.Tier, x.Check.Requirement)
		if x.Expected != "" {
			fmt.Fprintf(w, "    expected: %s\n", x.Expected)
		}
		fmt.Fprintf(w, "    got:      %s\n", indent(x.Detail, "              "))
		if len(x.Frames) > 0 && len(x.Tools) == 0 {
			fmt.Fprintf(w, "    frames (last process; → to the extension, ← from it):\n")
			for _, f := range x.Frames {
				fmt.Fprintf(w, "      %s\n", f)
			}
		}
		if len(x.Stderr) > 0 && len(x.Tools) == 0 {
			fmt.Fprintf(w, "    stderr (last lines):\n")
			for _, l := range process.Readable(x.Stderr) {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
	}
	writeTools(w, r)
	tools := toolCounts(r)
	if n := r.Errored(); n > 0 {
		binding := r.count(func(x Result) bool { return x.Status == Error && x.failing() })
		_, err := fmt.Fprintf(w, "  %d passed, %d failed, %d skipped, %d errored (could not reach the state they test)%s\n", r.Passed(), r.Failed()-binding, r.Skipped(), n, tools)
		return err
	}
	_, err := fmt.Fprintf(w, "  %d passed, %d failed, %d skipped%s\n", r.Passed(), r.Failed(), r.Skipped(), tools)
	return err
}

// WriteSummary renders a report in one line, followed by the details of any
// failure (the matrix uses it for examples, whose skipped fixture checks are noise).
func WriteSummary(w io.Writer, r *Report) error {
	if r.LoadError != "" || r.Failed() > 0 {
		return WriteText(w, r)
	}
	calls, passed := r.Calls()
	_, err := fmt.Fprintf(w, "%s (%s): %d passed, %d failed, %d skipped; %d tool calls, %d passed  %s\n", r.Extension, r.Language, r.Passed(), r.Failed(), r.Skipped(), calls, passed, r.Dir)
	return err
}

func roundDuration(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

func oneLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func indent(s, prefix string) string { return strings.ReplaceAll(s, "\n", "\n"+prefix) }

// JSONReport is the machine-readable report of one extension (certify --json).
type JSONReport struct {
	Extension string      `json:"extension"`
	Language  string      `json:"language"`
	Checks    []JSONCheck `json:"checks"`
	Passed    int         `json:"passed"`
	Failed    int         `json:"failed"` // failing checks, errored ones included: certify fails when it is not 0
	Skipped   int         `json:"skipped"`
	Errored   int         `json:"errored"` // checks that could not reach the state they test
	Tools     []JSONTool  `json:"tools"`   // each tool the tools.* checks called or skipped
}

// JSONCheck is one check's outcome in a JSONReport.
type JSONCheck struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
}

// ToJSON converts a report; a failure's detail carries what was expected.
func ToJSON(r *Report) JSONReport {
	out := JSONReport{Extension: r.Extension, Language: r.Language, Checks: []JSONCheck{}, Passed: r.Passed(), Failed: r.Failed(),
		Skipped: r.Skipped(), Errored: r.Errored(), Tools: toJSONTools(r)}
	if r.LoadError != "" {
		out.Checks = append(out.Checks, JSONCheck{Name: "manifest", Status: Fail, Detail: r.LoadError})
	}
	for _, x := range r.Results {
		detail := x.Detail
		if x.Status == Fail && x.Expected != "" {
			detail = "expected " + x.Expected + "; got " + x.Detail
		}
		out.Checks = append(out.Checks, JSONCheck{Name: x.Check.Name, Status: x.shown(), Detail: detail})
	}
	return out
}

// WriteJSON writes one object for one report, an array for several.
func WriteJSON(w io.Writer, reps []*Report) error {
	if len(reps) == 1 {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(ToJSON(reps[0]))
	}
	return WriteJSONArray(w, reps)
}

// WriteJSONArray writes the reports as a JSON array, whatever their number.
func WriteJSONArray(w io.Writer, reps []*Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	all := make([]JSONReport, 0, len(reps))
	for _, r := range reps {
		all = append(all, ToJSON(r))
	}
	return enc.Encode(all)
}
