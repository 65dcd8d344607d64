package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// citedDoc matches a document a requirement cell cites: a Markdown or JSON file name,
// optionally with a directory (wire.md, reference/kv.md, schema/methods.json).
var citedDoc = regexp.MustCompile(`[A-Za-z0-9_./-]+\.(?:md|json)\b`)

// citeRoots are where a cited name is looked up, relative to docs/.
var citeRoots = []string{".", "design", "..", "../schema"}

// TestConformanceCitesOnlyTheProjectsDocuments reads the requirement column of every
// check's row in docs/conformance.md and the Requirement of every registered check: each
// must cite documents this repository holds (every cited file exists), and none may cite the
// specification the project was written from (seeds) or a design document it does not ship.
func TestConformanceCitesOnlyTheProjectsDocuments(t *testing.T) {
	raw, err := os.ReadFile("conformance.md")
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]bool{}
	cells := map[string]string{}
	for _, c := range conformance.Checks() {
		checks[c.Name] = true
		cells["check "+c.Name+" Requirement"] = c.Requirement
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		// The checks table: | `name` | tier | applies to | what it proves | requirement |
		cols := strings.Split(strings.Trim(line, "| "), " | ")
		if name := strings.Trim(cols[0], "`"); checks[name] {
			cells["docs/conformance.md row "+name] = cols[len(cols)-1]
		}
	}
	if len(cells) < 2*len(conformance.Checks()) {
		t.Fatalf("found %d requirement cells for %d checks; the table's shape changed", len(cells), len(conformance.Checks()))
	}
	banned := regexp.MustCompile(`(?i)\bseeds?\s+\d{3}\b|DESIGN\.md|seeds/`)
	for where, cell := range cells {
		if m := banned.FindString(cell); m != "" {
			t.Errorf("%s cites %q, which this repository does not hold: %s", where, m, cell)
		}
		docs := citedDoc.FindAllString(cell, -1)
		if len(docs) == 0 && !strings.Contains(cell, "](#") { // a section of this page counts
			t.Errorf("%s cites no document of the project: %s", where, cell)
		}
		for _, d := range docs {
			if !cited(d) {
				t.Errorf("%s cites %s, which is not in the repository: %s", where, d, cell)
			}
		}
	}
}

func cited(name string) bool {
	name = strings.TrimPrefix(name, "docs/")
	for _, r := range citeRoots {
		if _, err := os.Stat(filepath.Join(r, name)); err == nil {
			return true
		}
	}
	return false
}
