//go:build mage

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/magefile/mage/mg"
)

// A long target (Test, Demo) runs as named phases: each prints a header before it starts
// and a closing line with its time, and the target ends with one table of every phase (per
// language: what it counted in the tools' own summaries, and how long it took), so a run
// of a thousand lines can be read from its end.

// phaseRun is one finished phase.
type phaseRun struct {
	lang, name string
	took       time.Duration
	err        error
	counts     *counter
}

var (
	phaseMu    sync.Mutex
	phaseLog   []phaseRun
	phaseTally *counter // the running phase's counter; run() copies stdout into it
)

// phases runs steps in order as phases (each a mage target, run through mg.SerialDeps so
// that a target another one already ran is not run twice), then prints the summary table.
// The first failure stops the run; the table still shows what ran.
func phases(title string, steps []phaseStep) (err error) {
	start := time.Now()
	defer func() {
		printSummary(os.Stdout, title, time.Since(start))
	}()
	for i, s := range steps {
		if err := phase(fmt.Sprintf("%d/%d", i+1, len(steps)), s); err != nil {
			return err
		}
	}
	return nil
}

// phaseStep is a target and the language it belongs to ("all" for cross-language ones).
type phaseStep struct {
	lang, name string
	target     any
}

func phase(pos string, s phaseStep) (err error) {
	fmt.Printf("\n==> [%s] %s (%s)\n", pos, s.name, s.lang)
	c := &counter{}
	phaseMu.Lock()
	phaseTally = c
	phaseMu.Unlock()
	start := time.Now()
	defer func() {
		if r := recover(); r != nil { // mg.SerialDeps panics with the target's error
			err = fmt.Errorf("%v", r)
		}
		took := time.Since(start)
		phaseMu.Lock()
		phaseTally = nil
		phaseLog = append(phaseLog, phaseRun{lang: s.lang, name: s.name, took: took, err: err, counts: c})
		phaseMu.Unlock()
		verdict := "ok"
		if err != nil {
			verdict = "FAILED"
		}
		fmt.Printf("<== [%s] %s (%s): %s in %s\n", pos, s.name, s.lang, verdict, took.Round(100*time.Millisecond))
	}()
	mg.SerialDeps(s.target)
	return nil
}

// phaseStdout is where run() sends a command's stdout: the terminal, and the running
// phase's counter.
func phaseStdout() io.Writer {
	phaseMu.Lock()
	defer phaseMu.Unlock()
	if phaseTally == nil {
		return os.Stdout
	}
	return io.MultiWriter(os.Stdout, phaseTally)
}

// counter reads the summary lines of the tools a phase runs (go test's package lines,
// pytest's and node --test's totals, the conformance matrix's example rows) and adds up
// their counts per language.
type counter struct {
	mu      sync.Mutex
	partial []byte
	n       map[string]map[string]int // language -> what -> count
}

var (
	// go test's package line has a tab after its verdict ("ok  \tpkg\t1.2s"); node --test's
	// TAP lines ("ok 1 - name") have a space, and must not count as Go packages.
	goPkgRE     = regexp.MustCompile(`^(ok|FAIL) *\t\S+\t`)
	pytestRE    = regexp.MustCompile(`(\d+) (passed|failed|skipped|errors?)\b`)
	pytestEndRE = regexp.MustCompile(` in [\d.]+s`)
	nodeRE      = regexp.MustCompile(`^(?:# |ℹ )(pass|fail|skipped) (\d+)$`)
	matrixRE    = regexp.MustCompile(`^\s*\S+\s+(go|python|typescript)\s+\S+\s+(\d+)\s+(\d+)\s+(\d+)\s`)
)

func (c *counter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.partial = append(c.partial, p...)
	for {
		i := bytes.IndexByte(c.partial, '\n')
		if i < 0 {
			break
		}
		c.line(strings.TrimRight(string(c.partial[:i]), "\r"))
		c.partial = c.partial[i+1:]
	}
	return len(p), nil
}

func (c *counter) add(lang, what string, n int) {
	if c.n == nil {
		c.n = map[string]map[string]int{}
	}
	if c.n[lang] == nil {
		c.n[lang] = map[string]int{}
	}
	c.n[lang][what] += n
}

func (c *counter) line(l string) {
	if m := goPkgRE.FindStringSubmatch(l); m != nil {
		what := "packages ok"
		if m[1] == "FAIL" {
			what = "packages failed"
		}
		c.add("go", what, 1)
		return
	}
	if m := nodeRE.FindStringSubmatch(l); m != nil {
		n, _ := strconv.Atoi(m[2])
		c.add("typescript", map[string]string{"pass": "passed", "fail": "failed", "skipped": "skipped"}[m[1]], n)
		return
	}
	if m := matrixRE.FindStringSubmatch(l); m != nil {
		for i, what := range []string{"checks passed", "checks failed", "checks skipped"} {
			n, _ := strconv.Atoi(m[2+i])
			c.add(m[1], what, n)
		}
		return
	}
	if pytestEndRE.MatchString(l) {
		for _, m := range pytestRE.FindAllStringSubmatch(l, -1) {
			n, _ := strconv.Atoi(m[1])
			c.add("python", strings.Replace(m[2], "errors", "error", 1), n)
		}
	}
}

// summary is the counts of one language, "" when the phase counted nothing for it.
func (c *counter) summary(lang string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var parts []string
	for what, n := range c.n[lang] {
		parts = append(parts, fmt.Sprintf("%d %s", n, what))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func (c *counter) langs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for l := range c.n {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// printSummary prints the table of the phases run so far: one row per phase and language
// counted (a cross-language phase has one row per language it reported on).
func printSummary(w io.Writer, title string, total time.Duration) {
	phaseMu.Lock()
	runs := append([]phaseRun(nil), phaseLog...)
	phaseMu.Unlock()
	fmt.Fprintf(w, "\n%s summary (%s in all)\n\n", title, total.Round(time.Second))
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "phase\tlanguage\tresult\ttime\tcounts")
	for _, r := range runs {
		verdict := "ok"
		if r.err != nil {
			verdict = "FAILED"
		}
		langs := r.counts.langs()
		if len(langs) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.name, r.lang, verdict, r.took.Round(100*time.Millisecond), "-")
			continue
		}
		for i, l := range langs {
			took := r.took.Round(100 * time.Millisecond).String()
			if i > 0 {
				took = `"`
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.name, l, verdict, took, r.counts.summary(l))
		}
	}
	tw.Flush()
}

// phaseNested reports whether a phase is running (a target with phases of its own, Demo,
// runs as one phase of Test rather than printing a second table).
func phaseNested() bool {
	phaseMu.Lock()
	defer phaseMu.Unlock()
	return phaseTally != nil
}
