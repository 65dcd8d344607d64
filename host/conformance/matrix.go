package conformance

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
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
func RunMatrix(ctx context.Context, root string, opts Options, progress io.Writer) *Matrix {
	m := &Matrix{Root: root, Fixtures: map[string]*Report{}, InPlay: map[string]bool{}, Gaps: Gaps()}
	for _, f := range Discover(root) {
		m.InPlay[f.Language] = true
		var rep *Report
		if f.Err != nil {
			rep = &Report{Extension: f.Name, Language: f.Language, Dir: f.Dir, LoadError: f.Err.Error()}
		} else {
			rep = Certify(ctx, f.Ext, opts)
		}
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
