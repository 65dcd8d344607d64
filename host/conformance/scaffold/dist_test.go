package scaffold_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/conformance/scaffold"
)

// TestGoScaffoldFromReleaseNeedsNoEnvironment writes the Go SDK module zip the way
// `go run mage.go dist` does, scaffolds from that release directory, and builds, vets and
// tests the scaffold with GOFLAGS, GONOSUMDB and GOWORK cleared and GOPROXY=off: the
// SDK must come from the scaffold itself (its dependencies from the module cache the kit's
// own build filled), so an author needs no environment variable to start.
func TestGoScaffoldFromReleaseNeedsNoEnvironment(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go scaffold")
	}
	kit := scaffold.FindKit(".")
	if kit == "" {
		t.Fatal("no kit checkout upwards")
	}
	dist := t.TempDir()
	mv := module.Version{Path: scaffold.SDKModule, Version: "v" + host.OctetVersion}
	at := filepath.Join(dist, "goproxy", filepath.FromSlash(mv.Path), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(at, mv.Version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := modzip.CreateFromDir(zf, mv, filepath.Join(kit, "sdk-go")); err != nil {
		t.Fatal(err)
	}
	zf.Close()

	dir := filepath.Join(t.TempDir(), "from-dist")
	res, err := scaffold.Generate(scaffold.Options{Lang: "go", Name: "from-dist", Dir: dir, SDK: dist})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(res.Files, "go.mod") {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		if strings.Contains(string(b), dist) || strings.Contains(string(b), kit) {
			t.Errorf("%s names the release or kit directory; a bundle must carry no such path:\n%s", f, b)
		}
	}
	for _, next := range res.Next {
		if strings.Contains(next, "GOFLAGS") || strings.Contains(next, "GONOSUMDB") || strings.Contains(next, "GOPROXY") {
			t.Errorf("next step %q sets Go's environment; the scaffold must not need it", next)
		}
	}
	env := []string{"GOFLAGS=", "GONOSUMDB=", "GONOPROXY=", "GOPRIVATE=", "GOWORK=off", "GOPROXY=off"}
	for _, args := range [][]string{{"build", "-o", "bin/from-dist", "."}, {"vet", "./..."}, {"test", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the release scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
