package docs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The glossary names each concept's identifier per column; every one must exist as a word
// in the tree its column stands for, so renaming a concept without the glossary fails here.
func TestGlossaryNamesExist(t *testing.T) {
	page, err := os.ReadFile("glossary.md")
	if err != nil {
		t.Fatal(err)
	}
	trees := []struct {
		name string
		dir  string
		ext  []string
	}{
		{"schema", "../schema", []string{".json"}},
		{"Go", "../sdk-go", []string{".go"}},
		{"Python", "../sdk-python/src", []string{".py"}},
		{"TypeScript", "../sdk-typescript/src", []string{".ts"}},
	}
	texts := make([]string, len(trees))
	for i, tr := range trees {
		texts[i] = treeText(t, tr.dir, tr.ext)
	}
	code := regexp.MustCompile("`([^`]+)`")
	rows := 0
	for _, line := range strings.Split(string(page), "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if !strings.HasPrefix(line, "| ") || len(cells) != 6 || cells[0] == "concept" || strings.HasPrefix(cells[0], "---") {
			continue
		}
		rows++
		for i, tr := range trees {
			m := code.FindStringSubmatch(cells[i+1])
			if m == nil {
				t.Errorf("glossary row %q: the %s column names no identifier", cells[0], tr.name)
				continue
			}
			ident := m[1]
			if tr.name == "schema" && strings.HasSuffix(ident, ".json") {
				if _, err := os.Stat(filepath.Join(tr.dir, ident)); err != nil {
					t.Errorf("glossary row %q: schema/%s does not exist", cells[0], ident)
				}
				continue
			}
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(ident) + `\b`).MatchString(texts[i]) {
				t.Errorf("glossary row %q: %s identifier %q appears nowhere in %s", cells[0], tr.name, ident, tr.dir)
			}
		}
	}
	if rows < 10 {
		t.Fatalf("the glossary table has %d rows; the parser lost it", rows)
	}
}

func treeText(t *testing.T, dir string, exts []string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "__pycache__" || d.Name() == "dist") {
			return filepath.SkipDir
		}
		for _, e := range exts {
			if !d.IsDir() && strings.HasSuffix(p, e) {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				b.Write(data)
				b.WriteByte('\n')
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
