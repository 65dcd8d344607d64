package conformance_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/host/conformance"
	"github.com/octet-kit/octet/host/manifest"
)

func TestDetectLanguage(t *testing.T) {
	base := t.TempDir()
	cases := []struct {
		dir, command string
		args         []string
		file, want   string
	}{
		{filepath.Join(base, "python", "a"), "run", nil, "", "python"},
		{filepath.Join(base, "x", "b"), "python3", []string{"main.py"}, "", "python"},
		{filepath.Join(base, "x", "c"), "node", []string{"dist/main.js"}, "", "typescript"},
		{filepath.Join(base, "x", "d"), "./launch", nil, "extension.ts", "typescript"},
		{filepath.Join(base, "x", "e"), "bin/e", nil, "main.go", "go"},
		{filepath.Join(base, "x", "f"), "./run", nil, "", ""},
	}
	for _, c := range cases {
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if c.file != "" {
			if err := os.WriteFile(filepath.Join(c.dir, c.file), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m := &manifest.Manifest{Entrypoint: manifest.Entrypoint{Command: c.command, Args: c.args}}
		if got := conformance.DetectLanguage(c.dir, m); got != c.want {
			t.Errorf("%s (%s %v, file %q): %q, want %q", c.dir, c.command, c.args, c.file, got, c.want)
		}
	}
}
