package discovery_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
)

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ext(name, version string) string {
	return "name = \"" + name + "\"\nversion = \"" + version + "\"\napi_version = \"0.4\"\n[entrypoint]\ncommand = \"run\"\n"
}

var opts = manifest.Options{OctetVersion: "0.8.0"}

func TestPrecedenceAndDiagnostics(t *testing.T) {
	base := t.TempDir()
	global := filepath.Join(base, "global")
	ws := filepath.Join(base, "ws")
	project := filepath.Join(ws, ".octet", "extensions")
	explicit1 := filepath.Join(base, "x1")
	explicit2 := filepath.Join(base, "x2")

	write(t, filepath.Join(global, "alpha"), "extension.toml", ext("alpha", "1.0.0"))
	write(t, filepath.Join(global, "beta"), "extension.toml", ext("beta", "1.0.0"))
	write(t, filepath.Join(global, "broken"), "extension.toml", "name = ")
	write(t, filepath.Join(global, "alias"), "extension.toml", ext("other", "1.0.0"))
	write(t, filepath.Join(global, "empty"), "README", "not an extension")
	write(t, global, "stray-file", "ignored")
	write(t, filepath.Join(project, "alpha"), "extension.toml", ext("alpha", "2.0.0"))
	write(t, filepath.Join(project, "gamma"), "extension.toml", ext("gamma", "1.0.0"))
	write(t, filepath.Join(explicit1, "beta"), "extension.toml", ext("beta", "3.0.0"))
	write(t, filepath.Join(explicit2, "beta"), "extension.toml", ext("beta", "4.0.0"))

	res := discovery.Discover(discovery.Roots(global, ws, true, []string{explicit1, explicit2}), opts)
	got := map[string]string{}
	for _, e := range res.Entries {
		if e.Valid() {
			got[e.Name] = e.Manifest.Version + "/" + string(e.Source)
		} else {
			got[e.Name] = "invalid"
		}
	}
	want := map[string]string{"alpha": "2.0.0/project", "beta": "4.0.0/explicit", "gamma": "1.0.0/project", "broken": "invalid", "alias": "invalid"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q want %q (all %v)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("unexpected entries %v", got)
	}
	rules := map[string]int{}
	for _, d := range res.Diagnostics {
		rules[d.Rule]++
	}
	if rules[manifest.RuleShadowed] != 3 || rules[manifest.RuleDirectoryName] != 1 || rules[manifest.RuleSyntax] != 1 {
		t.Errorf("diagnostic counts %v: %v", rules, res.Diagnostics)
	}

	// An untrusted workspace's project root is ignored entirely.
	res = discovery.Discover(discovery.Roots(global, ws, false, nil), opts)
	if e := res.Lookup("alpha"); e == nil || e.Source != discovery.Global {
		t.Errorf("untrusted project root was used: %+v", e)
	}
	if res.Lookup("gamma") != nil {
		t.Errorf("untrusted project extension discovered")
	}
}

func TestMissingRoots(t *testing.T) {
	base := t.TempDir()
	res := discovery.Discover(discovery.Roots(filepath.Join(base, "none"), base, true, []string{filepath.Join(base, "nope")}), opts)
	if len(res.Entries) != 0 || len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "explicit extension root") {
		t.Fatalf("want only the explicit root reported, got %v", res.Diagnostics)
	}
}

func TestExplicitSingleExtensionDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "solo")
	write(t, dir, "extension.toml", ext("solo", "1.0.0"))
	res := discovery.Discover(discovery.Roots("", "", false, []string{dir}), opts)
	if e := res.Lookup("solo"); e == nil || !e.Valid() || e.Source != discovery.Explicit {
		t.Fatalf("single extension dir not found: %+v %v", e, res.Diagnostics)
	}
}

func TestSymlinkedManifestRefused(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "real"), "m.toml", ext("linked", "1.0.0"))
	if err := os.MkdirAll(filepath.Join(root, "linked"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "real", "m.toml"), filepath.Join(root, "linked", "extension.toml")); err != nil {
		t.Fatal(err)
	}
	res := discovery.Discover([]discovery.Root{{Dir: root, Source: discovery.Global}}, opts)
	e := res.Lookup("linked")
	if e == nil || e.Valid() || e.Diagnostics[0].Rule != manifest.RuleRead {
		t.Fatalf("symlinked manifest accepted: %+v", e)
	}
}

// A crashed bundle install or update can leave a staging or moved-aside directory whose
// child (or itself) holds a manifest; none of it may be discovered, not even as invalid.
func TestDotDirectoriesAreNotDiscovered(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".staging-123", "alpha"), "extension.toml", ext("alpha", "1.0.0"))
	write(t, filepath.Join(root, ".previous-9"), "extension.toml", ext("beta", "1.0.0"))
	write(t, filepath.Join(root, "gamma"), "extension.toml", ext("gamma", "1.0.0"))
	res := discovery.Discover([]discovery.Root{{Dir: root, Source: discovery.Global}}, opts)
	if len(res.Entries) != 1 || res.Entries[0].Name != "gamma" || len(res.Diagnostics) != 0 {
		t.Fatalf("want only gamma and no diagnostics, got %+v %v", res.Entries, res.Diagnostics)
	}
}
