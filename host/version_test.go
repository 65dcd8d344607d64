package host_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"

	"github.com/octet-kit/octet/host"
)

// The kit has one version, kept in VERSION at the repository root; every package and the
// host carry it. `go run mage.go setVersion V` stamps it everywhere; this test fails on any
// place it missed.
func TestOneVersionEverywhere(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(raw))
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(want) {
		t.Fatalf("VERSION %q is not MAJOR.MINOR.PATCH", want)
	}
	got := map[string]string{
		"host.OctetVersion": host.OctetVersion,
		"sdk-go Version":    octet.Version,
	}
	grab := func(label, path, pattern string) {
		b, err := os.ReadFile(filepath.Join("..", path))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(pattern).FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s: no version matching %s", path, pattern)
		}
		got[label] = string(m[1])
	}
	grab("sdk-python/pyproject.toml", "sdk-python/pyproject.toml", `(?m)^version = "([^"]+)"`)
	grab("octet_extension.__version__", "sdk-python/src/octet_extension/__init__.py", `(?m)^__version__ = "([^"]+)"`)
	for _, path := range []string{"sdk-typescript/package.json", "sdk-typescript/package-lock.json"} {
		b, err := os.ReadFile(filepath.Join("..", path))
		if err != nil {
			t.Fatal(err)
		}
		var pkg struct {
			Version string `json:"version"`
		}
		if err := json.Unmarshal(b, &pkg); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got[path] = pkg.Version
	}
	for label, v := range got {
		if v != want {
			t.Errorf("%s is %q, VERSION is %q (run go run mage.go setVersion %s)", label, v, want, want)
		}
	}
}
