package conformance

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
)

// Matrix is the certification of every example and fixture under a root laid out
// as ROOT/{go,python,typescript}/<name>/.
type Matrix struct {
	Root     string
	Fixtures map[string]*Report // language → the fixture's report; absent: no fixture
	Examples []*Report          // every other extension, in discovery order
	// InPlay lists the languages that have at least one extension under the root.
	InPlay map[string]bool
	Gaps   []Requirement // requirements of the schema's method registry no check covers
}

// RunMatrix certifies everything under root. Fixtures get every check; examples get
// the checks that bind every extension (the heavy fixture checks run once per
// language). progress, when not nil, receives each text report as it completes.
//
// Up to opts.Jobs extensions (default: one per CPU) are certified at once, the fixtures
// first (each takes several examples' time, so started last they would be the run's
// tail). Each extension's checks still run one after another on their own processes, and
// the reports, the progress and the tables keep discovery order whatever finished first:
// the same tree prints the same matrix.
func RunMatrix(ctx context.Context, root string, opts Options, progress io.Writer) *Matrix {
	m := &Matrix{Root: root, Fixtures: map[string]*Report{}, InPlay: map[string]bool{}, Gaps: Gaps()}
	found := Discover(root)
	reports := certifyAll(ctx, found, opts)
	for i, f := range found {
		m.InPlay[f.Language] = true
		rep := <-reports[i]
		if f.Name == FixtureName {
			m.Fixtures[f.Language] = rep
		} else {
			m.Examples = append(m.Examples, rep)
		}
		if progress != nil {
			if f.Name == FixtureName {
				_ = WriteText(progress, rep)
				fmt.Fprintln(progress)
			} else {
				_ = WriteSummary(progress, rep)
			}
		}
	}
	return m
}

// certifyAll starts certifying found on opts.Jobs workers, the fixtures first, and
// returns one channel per extension, in found's order, that receives its report.
func certifyAll(ctx context.Context, found []Found, opts Options) []chan *Report {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if opts.OnResult != nil { // called from several workers: one at a time
		var mu sync.Mutex
		onResult := opts.OnResult
		opts.OnResult = func(r Result) {
			mu.Lock()
			defer mu.Unlock()
			onResult(r)
		}
	}
	order := make([]int, 0, len(found))
	for _, fixtures := range []bool{true, false} {
		for i, f := range found {
			if (f.Name == FixtureName) == fixtures {
				order = append(order, i)
			}
		}
	}
	return startAll(len(found), jobs, order, func(i int) *Report {
		f := found[i]
		if f.Err != nil {
			return &Report{Extension: f.Name, Language: f.Language, Dir: f.Dir, LoadError: f.Err.Error()}
		}
		return certifyExt(ctx, f.Ext, opts)
	})
}

// certifyExt is Certify; the order tests replace it to decide which extension finishes when.
var certifyExt = Certify

// startAll runs work for each index of order, in that order, on up to jobs goroutines, and
// returns n channels: channel i receives work(i) (buffered, so no worker waits for a
// reader). Reading them by index gives index order whichever finished first.
func startAll(n, jobs int, order []int, work func(int) *Report) []chan *Report {
	out := make([]chan *Report, n)
	for i := range out {
		out[i] = make(chan *Report, 1)
	}
	queue := make(chan int, len(order))
	for _, i := range order {
		queue <- i
	}
	close(queue)
	for range min(max(jobs, 1), len(order)) {
		go func() {
			for i := range queue {
				out[i] <- work(i)
			}
		}()
	}
	return out
}

// Problems lists why the matrix is not green: failed reports, and a language that
// ships examples but no conformance fixture (its checks would silently not run).
func (m *Matrix) Problems() []string {
	var out []string
	for _, lang := range Languages {
		if r := m.Fixtures[lang]; r != nil && !r.OK() {
			out = append(out, fmt.Sprintf("%s fixture: %d failed", lang, r.Failed()))
		}
		if m.InPlay[lang] && m.Fixtures[lang] == nil {
			out = append(out, fmt.Sprintf("%s has examples but no %s/%s/%s", lang, m.Root, lang, FixtureName))
		}
	}
	for _, r := range m.Examples {
		if !r.OK() {
			out = append(out, fmt.Sprintf("%s/%s: %d failed", r.Language, filepath.Base(r.Dir), r.Failed()))
		}
	}
	return out
}

// cell is a check's result for one language's fixture.
func (m *Matrix) cell(lang, check string) string {
	r := m.Fixtures[lang]
	if r == nil {
		return "missing"
	}
	if r.LoadError != "" {
		return "invalid"
	}
	x, ok := r.Result(check)
	if !ok {
		return "-"
	}
	return string(x.shown())
}

// WriteMatrix prints the checks × languages table, the examples table and the
// coverage gaps.
func WriteMatrix(w io.Writer, m *Matrix) error {
	fmt.Fprintf(w, "Conformance matrix: checks × language fixtures (%s/<language>/%s)\n\n", m.Root, FixtureName)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "check\ttier\t%s\n", strings.Join(Languages, "\t"))
	for _, c := range Checks() {
		row := []string{c.Name, c.Tier.String()}
		for _, lang := range Languages {
			row = append(row, m.cell(lang, c.Name))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()

	fmt.Fprintf(w, "\nExamples × status (checks that bind every extension; tool calls: made by the tools.* checks with generated arguments)\n\n")
	if len(m.Examples) == 0 {
		fmt.Fprintf(w, "  (no examples under %s)\n", m.Root)
	} else {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "example\tlanguage\tstatus\tpassed\tfailed\tskipped\ttools\ttool calls\tcalls passed")
		for _, r := range m.Examples {
			status := "pass"
			if !r.OK() {
				status = "FAIL"
			}
			calls, passed := r.Calls()
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", filepath.Base(r.Dir), r.Language, status, r.Passed(), r.Failed(), r.Skipped(),
				len(r.Tools()), calls, passed)
		}
		tw.Flush()
	}
	if len(m.Gaps) > 0 {
		fmt.Fprintf(w, "\nCoverage: %d of %d requirements of schema/methods.json are covered by a check; gaps:\n  %s\n",
			len(Requirements())-len(m.Gaps), len(Requirements()), strings.ReplaceAll(FormatGaps(m.Gaps), "; ", "\n  "))
	} else {
		fmt.Fprintf(w, "\nCoverage: all %d requirements of schema/methods.json are covered by a check\n", len(Requirements()))
	}
	probs := m.Problems()
	for _, lang := range Languages {
		if m.Fixtures[lang] == nil && !m.InPlay[lang] {
			fmt.Fprintf(w, "Gap: no %s extensions under %s yet (fixture missing)\n", lang, m.Root)
		}
	}
	if len(probs) == 0 {
		_, err := fmt.Fprintf(w, "\nRESULT: pass\n")
		return err
	}
	_, err := fmt.Fprintf(w, "\nRESULT: FAIL\n  %s\n", strings.Join(probs, "\n  "))
	return err
}
