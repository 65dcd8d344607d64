package conformance

import "time"

// Status is a check's outcome.
type Status string

// Outcomes of a check.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	Skip Status = "skip"
	// Error: the check could not reach the state it tests (the extension exits before it
	// answers an ordinary initialize), so what it observed proves nothing. It fails
	// certification like a failure of its tier.
	Error Status = "error"
)

// Result is one check's outcome on one extension.
type Result struct {
	Check    *Check
	Status   Status
	Detail   string // pass: what was observed worth saying; fail: what went wrong; skip: why
	Expected string // for a failure: what the rule wanted
	Duration time.Duration
	Frames   []string    // for a failure: the frames exchanged (first and last)
	Stderr   []string    // for a failure: the last lines of the extension's stderr
	Tools    []ToolCalls // for the checks that call the extension's tools: each tool's tally
}

// Warn is how reports show a failed advisory check: seen, never failing certification.
const Warn Status = "warn"

// shown is the status reports print: warn for a failed advisory check.
func (r Result) shown() Status {
	if r.Status == Fail && r.Check.Tier == Advisory {
		return Warn
	}
	return r.Status
}

// Counts as failure: a failed (or errored) required or conditional check. Advisory
// failures are shown only.
func (r Result) failing() bool {
	return (r.Status == Fail || r.Status == Error) && r.Check.Tier != Advisory
}

// Report is the certification of one extension.
type Report struct {
	Extension string // the manifest name, or the directory name when it did not load
	Language  string
	Dir       string
	LoadError string // the manifest could not be loaded: nothing ran
	Results   []Result
}

// Passed counts passing checks.
func (r *Report) Passed() int { return r.count(func(x Result) bool { return x.Status == Pass }) }

// Failed counts failures that fail certification, plus a manifest that did not load.
func (r *Report) Failed() int {
	n := r.count(Result.failing)
	if r.LoadError != "" {
		n++
	}
	return n
}

// Errored counts checks that could not reach the state they test.
func (r *Report) Errored() int { return r.count(func(x Result) bool { return x.Status == Error }) }

// Skipped counts checks that did not apply.
func (r *Report) Skipped() int { return r.count(func(x Result) bool { return x.Status == Skip }) }

// OK reports whether the extension is certified: nothing failed.
func (r *Report) OK() bool { return r.Failed() == 0 }

func (r *Report) count(f func(Result) bool) int {
	n := 0
	for _, x := range r.Results {
		if f(x) {
			n++
		}
	}
	return n
}

// Result returns the result of the named check.
func (r *Report) Result(name string) (Result, bool) {
	for _, x := range r.Results {
		if x.Check.Name == name {
			return x, true
		}
	}
	return Result{}, false
}
