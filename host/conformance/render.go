package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/octet-kit/octet/host/process"
)

// WriteText renders a report for people: one line per check (result, name, tier,
// duration, detail) and, for a failure, what was expected, the frames exchanged
// and the last lines of stderr.
func WriteText(w io.Writer, r *Report) error {
	lang := r.Language
	if lang == "" {
		lang = "unknown language"
	}
	fmt.Fprintf(w, "%s (%s) %s\n", r.Extension, lang, r.Dir)
	if r.LoadError != "" {
		fmt.Fprintf(w, "  FAIL  manifest: %s\n", indent(r.LoadError, "        "))
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, x := range r.Results {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", strings.ToUpper(string(x.shown())), x.Check.Name, x.Check.Tier,
			roundDuration(x.Duration), oneLine(x.Detail, 110))
	}
	if err := tw.Flush(); err != nil {
		return err
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
		if len(x.Frames) > 0 {
			fmt.Fprintf(w, "    frames (last process; → to the extension, ← from it):\n")
			for _, f := range x.Frames {
				fmt.Fprintf(w, "      %s\n", f)
			}
		}
		if len(x.Stderr) > 0 {
			fmt.Fprintf(w, "    stderr (last lines):\n")
			for _, l := range process.Readable(x.Stderr) {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
	}
	if n := r.Errored(); n > 0 {
		binding := r.count(func(x Result) bool { return x.Status == Error && x.failing() })
		_, err := fmt.Fprintf(w, "  %d passed, %d failed, %d skipped, %d errored (could not reach the state they test)\n", r.Passed(), r.Failed()-binding, r.Skipped(), n)
		return err
	}
	_, err := fmt.Fprintf(w, "  %d passed, %d failed, %d skipped\n", r.Passed(), r.Failed(), r.Skipped())
	return err
}

// WriteSummary renders a report in one line, followed by the details of any
// failure (the matrix uses it for examples, whose skipped fixture checks are noise).
func WriteSummary(w io.Writer, r *Report) error {
	if r.LoadError != "" || r.Failed() > 0 {
		return WriteText(w, r)
	}
	_, err := fmt.Fprintf(w, "%s (%s): %d passed, %d failed, %d skipped  %s\n", r.Extension, r.Language, r.Passed(), r.Failed(), r.Skipped(), r.Dir)
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
		Skipped: r.Skipped(), Errored: r.Errored()}
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
