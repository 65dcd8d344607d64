package conformance

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// orderRoot writes a matrix root of manifests only (certifyExt is replaced, nothing starts):
// go/{a,b,conformance-fixture} and python/{c,conformance-fixture}, in discovery order.
func orderRoot(t *testing.T) (root string, names []string) {
	root = t.TempDir()
	for _, d := range []string{"go/a", "go/b", "go/" + FixtureName, "python/c", "python/" + FixtureName} {
		dir := filepath.Join(root, d)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		m := fmt.Sprintf("name = %q\nversion = \"0.1.0\"\napi_version = \"0.4\"\n\n[entrypoint]\ncommand = \"/bin/true\"\n", filepath.Base(d))
		if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, d)
	}
	return root, names
}

func fakeCertify(t *testing.T, f func(ext *Extension) *Report) {
	saved := certifyExt
	certifyExt = func(_ context.Context, ext *Extension, _ Options) *Report { return f(ext) }
	t.Cleanup(func() { certifyExt = saved })
}

func extKey(ext *Extension) string { return ext.Language + "/" + filepath.Base(ext.Dir) }

// TestMatrixOrderIsDiscoveryOrder makes the first example (go/a) finish last, after every
// other extension has returned, and wants the progress lines and the examples table in
// discovery order all the same: what the matrix prints does not depend on who finished first.
func TestMatrixOrderIsDiscoveryOrder(t *testing.T) {
	root, names := orderRoot(t)
	var others sync.WaitGroup
	others.Add(len(names) - 1)
	fakeCertify(t, func(ext *Extension) *Report {
		if extKey(ext) == "go/a" {
			others.Wait()
		} else {
			defer others.Done()
		}
		return &Report{Extension: ext.Manifest.Name, Language: ext.Language, Dir: ext.Dir}
	})
	var progress bytes.Buffer
	m := RunMatrix(context.Background(), root, Options{Jobs: len(names)}, &progress)
	var examples []string
	for _, r := range m.Examples {
		examples = append(examples, r.Language+"/"+filepath.Base(r.Dir))
	}
	if want := []string{"go/a", "go/b", "python/c"}; !slices.Equal(examples, want) {
		t.Errorf("examples %v, want %v", examples, want)
	}
	var shown []string
	for _, line := range strings.Split(progress.String(), "\n") {
		for _, n := range names {
			if strings.HasSuffix(line, filepath.Join(root, n)) {
				shown = append(shown, n)
			}
		}
	}
	if !slices.Equal(shown, names) {
		t.Errorf("progress shows %v, want discovery order %v:\n%s", shown, names, progress.String())
	}
	if m.Fixtures["go"] == nil || m.Fixtures["python"] == nil {
		t.Errorf("fixtures %v", m.Fixtures)
	}
}

// TestMatrixStartsFixturesFirst runs one job at a time and wants the fixtures (the longest
// certifications) started before the examples, each group in discovery order.
func TestMatrixStartsFixturesFirst(t *testing.T) {
	root, _ := orderRoot(t)
	var mu sync.Mutex
	var started []string
	fakeCertify(t, func(ext *Extension) *Report {
		mu.Lock()
		started = append(started, extKey(ext))
		mu.Unlock()
		return &Report{Extension: ext.Manifest.Name, Language: ext.Language, Dir: ext.Dir}
	})
	RunMatrix(context.Background(), root, Options{Jobs: 1}, nil)
	want := []string{"go/" + FixtureName, "python/" + FixtureName, "go/a", "go/b", "python/c"}
	if !slices.Equal(started, want) {
		t.Errorf("started %v, want %v", started, want)
	}
}
