package bundle_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/bundle"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
)

// entry is one archive member; typ defaults to a regular file.
type entry struct {
	name string
	body string
	mode int64
	typ  byte
	link string
}

func dir(name string) entry { return entry{name: name, typ: tar.TypeDir, mode: 0o755} }

func file(name, body string) entry { return entry{name: name, body: body, mode: 0o644} }

func toml(name, version, api, requiresOctet, command string) string {
	s := "name = \"" + name + "\"\nversion = \"" + version + "\"\napi_version = \"" + api + "\"\n"
	if requiresOctet != "" {
		s += "requires_octet = \"" + requiresOctet + "\"\n"
	}
	return s + "[entrypoint]\ncommand = \"" + command + "\"\n"
}

// good is a valid bundle of name at version whose entrypoint, if it ever ran, would create
// marker.
func good(name, version, marker string) []entry {
	return []entry{
		dir(name + "/"),
		file(name+"/extension.toml", toml(name, version, "0.4", "=0.8.0", "run")),
		{name: name + "/run", body: "#!/bin/sh\ntouch '" + marker + "'\n", mode: 0o775},
		file(name+"/docs/v"+version+".md", "notes for "+version+"\n"),
	}
}

// archive writes entries as a tar (gzipped unless plain) under t.TempDir and returns its path.
func archive(t *testing.T, entries []entry, plain bool) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Mode: e.mode, Typeflag: typ, Linkname: e.link, ModTime: time.Unix(1700000000, 0), Format: tar.FormatPAX}
		if typ == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatalf("writing header %q: %v", e.name, err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	name := "b.tar"
	if !plain {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		data, name = gz.Bytes(), "b.tar.gz"
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func sha(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

var fixed = time.Date(2026, 12, 1, 7, 30, 0, 0, time.UTC)

func newManager(t *testing.T) *bundle.Manager {
	m := bundle.New(filepath.Join(t.TempDir(), "extensions"))
	m.Now = func() time.Time { return fixed }
	return m
}

// discover runs the host's discovery on the root as the global root.
func discover(m *bundle.Manager) *discovery.Result {
	return discovery.Discover([]discovery.Root{{Dir: m.Root, Source: discovery.Global}}, manifest.Options{OctetVersion: "0.8.0"})
}

// rootNames lists the root's children, to show that nothing but bundles and the lock remain.
func rootNames(t *testing.T, root string) []string {
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}
