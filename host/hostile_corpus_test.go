package host_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
	"github.com/octet-kit/octet/host/internal/hostile"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

var updateHostile = flag.Bool("update-hostile", false, "rewrite the generated files of host/testdata/hostile")

const corpus = "testdata/hostile"

// wantRows reads a kind's want.tsv: file name -> its expected fields.
func wantRows(t *testing.T, kind string) map[string][]string {
	data, err := os.ReadFile(filepath.Join(corpus, kind, "want.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		rows[f[0]] = f[1:]
	}
	return rows
}

// refusalIsClean fails when a refusal carries raw control characters (the hostile value
// must be quoted, never printed verbatim to a terminal).
func refusalIsClean(t *testing.T, name, msg string) {
	for _, r := range msg {
		if r < 0x20 && r != '\n' || r == 0x7f {
			t.Errorf("%s: the refusal carries a raw control character %U: %q", name, r, msg)
		}
	}
}

// Every file of the hostile corpus (host/testdata/hostile, see its README) is refused, and
// the refusal names the file and the place: each kind's want.tsv lists what it must say.
// Files one level past MAX_JSON_DEPTH are written by the hostile package's generators and
// must equal their output (go test ./host -run TestHostileCorpus -update-hostile rewrites
// them when the bound changes).
func TestHostileCorpus(t *testing.T) {
	for path, data := range hostile.Generated(protocol.MaxJSONDepth) {
		full := filepath.Join(corpus, path)
		if *updateHostile {
			if err := os.WriteFile(full, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := os.ReadFile(full); err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s is missing or stale (%v): go test ./host -run TestHostileCorpus -update-hostile", full, err)
		}
	}
	kinds := map[string]func(t *testing.T, path string, want []string){
		"manifests": func(t *testing.T, path string, want []string) {
			data, _ := os.ReadFile(path)
			_, diags := manifest.Parse(data, path, manifest.Options{OctetVersion: "0.8.0"})
			if len(diags) == 0 {
				t.Fatalf("%s was accepted", path)
			}
			d := diags[0].String()
			refusalIsClean(t, path, d)
			if diags[0].File != path || !strings.Contains(d, want[0]) {
				t.Errorf("%s: refusal %q does not name the file and %q", path, d, want[0])
			}
		},
		"scripts": func(t *testing.T, path string, want []string) {
			_, err := script.Load(path)
			if err == nil {
				t.Fatalf("%s was accepted", path)
			}
			refusalIsClean(t, path, err.Error())
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want[0]) {
				t.Errorf("%s: refusal %q does not name the file and %q", path, err, want[0])
			}
		},
		"installjson": func(t *testing.T, path string, want []string) {
			data, _ := os.ReadFile(path)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, bundle.RecordFile), data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := bundle.ReadRecord(dir)
			if err == nil {
				t.Fatalf("%s was accepted", path)
			}
			refusalIsClean(t, path, err.Error())
			if !strings.Contains(err.Error(), filepath.Join(dir, bundle.RecordFile)) || !strings.Contains(err.Error(), want[0]) {
				t.Errorf("%s: refusal %q does not name the file and %q", path, err, want[0])
			}
		},
		"archives": func(t *testing.T, path string, want []string) {
			m := bundle.New(filepath.Join(t.TempDir(), "root"))
			_, err := m.Install(path)
			var be *bundle.Error
			if !errors.As(err, &be) {
				t.Fatalf("%s was not refused as a bundle: %v", path, err)
			}
			refusalIsClean(t, path, err.Error())
			if string(be.Rule) != want[0] || !strings.Contains(err.Error(), want[1]) {
				t.Errorf("%s: refusal %q, want rule %s naming %q", path, err, want[0], want[1])
			}
			if entries, _ := os.ReadDir(m.Root); len(entries) > 1 {
				t.Errorf("%s: the refused install left %d entries in the root", path, len(entries))
			}
		},
		"frames": func(t *testing.T, path string, want []string) {
			data, _ := os.ReadFile(path)
			code, msg := wireRefusal(t, data)
			refusalIsClean(t, path, msg)
			if strconv.FormatInt(code, 10) != want[0] || !strings.Contains(msg, want[1]) {
				t.Errorf("%s: answered %d %q, want %s naming %q", path, code, msg, want[0], want[1])
			}
		},
	}
	for kind, check := range kinds {
		rows := wantRows(t, kind)
		files, _ := filepath.Glob(filepath.Join(corpus, kind, "*"))
		seen := 0
		for _, path := range files {
			name := filepath.Base(path)
			if name == "want.tsv" {
				continue
			}
			want, ok := rows[name]
			if !ok {
				t.Errorf("%s has no row in %s/want.tsv", path, kind)
				continue
			}
			seen++
			t.Run(kind+"/"+name, func(t *testing.T) { check(t, path, want) })
		}
		if seen != len(rows) {
			t.Errorf("%s/want.tsv lists %d files, the directory has %d", kind, len(rows), seen)
		}
	}
}
