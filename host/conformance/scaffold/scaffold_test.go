package scaffold_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/conformance/scaffold"
)

func TestGenerateOutsideTheKitUsesInstalledSDKs(t *testing.T) {
	kit := scaffold.FindKit(".")
	for _, lang := range scaffold.Languages {
		dir := filepath.Join(t.TempDir(), "ext-"+lang)
		res, err := scaffold.Generate(scaffold.Options{Lang: lang, Name: "ext-" + lang, Dir: dir})
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if !slices.Contains(res.Files, "extension.toml") || !slices.Contains(res.Files, "README.md") {
			t.Errorf("%s: files %v lack the manifest or the README", lang, res.Files)
		}
		manifest, _ := os.ReadFile(filepath.Join(dir, "extension.toml"))
		if !strings.Contains(string(manifest), `name = "ext-`+lang+`"`) {
			t.Errorf("%s: manifest does not carry the name:\n%s", lang, manifest)
		}
		for _, f := range res.Files {
			b, _ := os.ReadFile(filepath.Join(dir, f))
			if kit != "" && strings.Contains(string(b), kit) || strings.Contains(string(b), "<no value>") {
				t.Errorf("%s/%s refers to a kit checkout or an unset template value:\n%s", lang, f, b)
			}
		}
		if len(res.Next) == 0 || res.Next[len(res.Next)-1] != "octet-host certify ." {
			t.Errorf("%s: next steps %v should end with certify", lang, res.Next)
		}
	}
	run := filepath.Join(t.TempDir(), "py")
	if _, err := scaffold.Generate(scaffold.Options{Lang: "python", Name: "py", Dir: run}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(run, "run")); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("the python launcher must be executable: %v %v", fi, err)
	}
}

func TestFindKit(t *testing.T) {
	kit := scaffold.FindKit(".")
	if kit == "" {
		t.Fatal("no kit found from host/conformance/scaffold upwards")
	}
	if _, err := os.Stat(filepath.Join(kit, "host", "conformance", "scaffold")); err != nil {
		t.Fatalf("FindKit returned %s, which does not hold this package", kit)
	}
	if got := scaffold.FindKit(t.TempDir()); got != "" {
		t.Errorf("a temporary directory is not in a kit, got %s", got)
	}
}
