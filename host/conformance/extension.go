package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/manifest"
)

// FixtureName is the name of every language's conformance fixture (docs/design/fixture.md).
const FixtureName = "conformance-fixture"

// Languages are the SDK languages, in the order reports list them.
var Languages = []string{"go", "python", "typescript"}

// Extension is an extension directory with its validated manifest.
type Extension struct {
	Dir       string
	Manifest  *manifest.Manifest
	Language  string // go, python, typescript, or "" when it cannot be told
	Workspace string // exported as OCTET_WORKSPACE
}

// IsFixture reports whether the extension is a conformance fixture.
func (e *Extension) IsFixture() bool { return e.Manifest.Name == FixtureName }

// HasTool reports whether the manifest contributes the tool.
func (e *Extension) HasTool(name string) bool {
	return slices.Contains(e.Manifest.Contributes.Tools, name)
}

// LoadExtension reads and validates dir/extension.toml. Manifest problems come back
// as one error listing every diagnostic.
func LoadExtension(dir string) (*Extension, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	m, diags := manifest.Load(filepath.Join(abs, manifest.FileName), manifest.Options{OctetVersion: host.OctetVersion})
	if len(diags) > 0 {
		var lines []string
		for _, d := range diags {
			lines = append(lines, d.String())
		}
		return nil, fmt.Errorf("invalid manifest:\n  %s", strings.Join(lines, "\n  "))
	}
	return &Extension{Dir: abs, Manifest: m, Language: DetectLanguage(abs, m), Workspace: abs}, nil
}

// DetectLanguage tells the SDK language from the directory (…/go/<name>,
// …/python/<name>, …/typescript/<name>), else from the entrypoint command, else from
// the source files beside the manifest (a launcher script says nothing by its name).
func DetectLanguage(dir string, m *manifest.Manifest) string {
	if parent := filepath.Base(filepath.Dir(dir)); slices.Contains(Languages, parent) {
		return parent
	}
	cmd := filepath.Base(m.Entrypoint.Command)
	words := append([]string{cmd}, m.Entrypoint.Args...)
	for _, w := range words {
		switch {
		case strings.HasPrefix(w, "python"), strings.HasSuffix(w, ".py"):
			return "python"
		case w == "node", w == "npx", w == "tsx", strings.HasSuffix(w, ".js"), strings.HasSuffix(w, ".mjs"), strings.HasSuffix(w, ".ts"):
			return "typescript"
		case w == "go", strings.HasSuffix(w, ".go"):
			return "go"
		}
	}
	for _, probe := range []struct{ glob, lang string }{
		{"*.py", "python"}, {"*.ts", "typescript"}, {"package.json", "typescript"}, {"*.go", "go"},
	} {
		if found, _ := filepath.Glob(filepath.Join(dir, probe.glob)); len(found) > 0 {
			return probe.lang
		}
	}
	return ""
}

// Found is an extension directory found under a matrix root, loaded or not.
type Found struct {
	Dir      string
	Language string
	Name     string // the directory name
	Ext      *Extension
	Err      error // the manifest could not be loaded
}

// Discover lists every ROOT/<language>/<name>/ holding an extension.toml, sorted by
// language then name.
func Discover(root string) []Found {
	var out []Found
	for _, lang := range Languages {
		entries, err := os.ReadDir(filepath.Join(root, lang))
		if err != nil {
			continue
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, name := range names {
			dir := filepath.Join(root, lang, name)
			if _, err := os.Stat(filepath.Join(dir, manifest.FileName)); err != nil {
				continue
			}
			f := Found{Dir: dir, Language: lang, Name: name}
			f.Ext, f.Err = LoadExtension(dir)
			if f.Ext != nil {
				f.Ext.Language = lang
			}
			out = append(out, f)
		}
	}
	return out
}
