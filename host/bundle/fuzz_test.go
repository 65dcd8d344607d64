package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzLimits are small so the fuzzer reaches every bound with inputs of a few KiB.
var fuzzLimits = limits{archive: 1 << 16, entry: 1 << 12, manifest: 1 << 10, expanded: 1 << 14, entries: 24}

// fuzzEntry is one member of a seed archive.
type fuzzEntry struct {
	name, body, link string
	typ              byte
}

func seedArchive(f *testing.F, gz bool, entries ...fuzzEntry) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Typeflag: e.typ, Linkname: e.link, Format: tar.FormatPAX}
		if e.typ == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			f.Fatal(err)
		}
		if e.typ == tar.TypeReg {
			_, _ = tw.Write([]byte(e.body))
		}
	}
	_ = tw.Close()
	if !gz {
		return buf.Bytes()
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write(buf.Bytes())
	_ = zw.Close()
	return z.Bytes()
}

// FuzzExtract feeds arbitrary bytes to the archive reader as a .tar or .tar.gz file. It
// must refuse with a *Error naming a rule, or extract a candidate whose files are exactly
// the regular files written, all below staging/<root>, within every bound, with the
// archive's digest; it never writes outside staging nor leaves a link or special file.
func FuzzExtract(f *testing.F) {
	manifest := "name = \"hello\"\nversion = \"0.1.0\"\napi_version = \"0.4\"\nrequires_octet = \"=0.8.0\"\n[entrypoint]\ncommand = \"run\"\n"
	good := []fuzzEntry{{name: "hello/", typ: tar.TypeDir}, {name: "hello/extension.toml", body: manifest, typ: tar.TypeReg}, {name: "hello/bin/run", body: "#!/bin/sh\n", typ: tar.TypeReg}}
	for _, gz := range []bool{false, true} {
		f.Add(seedArchive(f, gz, good...))
		f.Add(seedArchive(f, gz, append(good, fuzzEntry{name: "hello/../escape", body: "x", typ: tar.TypeReg})...))
		f.Add(seedArchive(f, gz, append(good, fuzzEntry{name: "hello/ln", link: "/etc/passwd", typ: tar.TypeSymlink})...))
		f.Add(seedArchive(f, gz, append(good, fuzzEntry{name: "hello/hard", link: "hello/bin/run", typ: tar.TypeLink})...))
		f.Add(seedArchive(f, gz, append(good, fuzzEntry{name: "hello/BIN/x", body: "x", typ: tar.TypeReg})...))
		f.Add(seedArchive(f, gz, append(good, fuzzEntry{name: "hello/bin/run", body: "again", typ: tar.TypeReg})...))
		f.Add(seedArchive(f, gz, append(good, fuzzEntry{name: "other/x", body: "x", typ: tar.TypeReg})...))
		f.Add(seedArchive(f, gz, append(good, fuzzEntry{name: "hello/big", body: strings.Repeat("a", 5000), typ: tar.TypeReg})...))
		f.Add(seedArchive(f, gz, fuzzEntry{name: "hello/bin/run/x", body: "x", typ: tar.TypeReg}, fuzzEntry{name: "hello/bin/run", body: "x", typ: tar.TypeReg}))
	}
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	f.Add([]byte{})
	base := f.TempDir() // one directory for every input: t.TempDir per input halves the rate
	f.Fuzz(func(t *testing.T, data []byte) {
		tmp, err := os.MkdirTemp(base, "in")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		src := filepath.Join(tmp, "b.tar")
		staging := filepath.Join(tmp, "staging")
		if err := os.WriteFile(src, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(staging, 0o755); err != nil {
			t.Fatal(err)
		}
		c, err := extract(src, staging, fuzzLimits)
		written := stagedFiles(t, tmp, staging)
		if err != nil {
			var be *Error
			if !errors.As(err, &be) || be.Rule == "" || be.Message == "" {
				t.Fatalf("refusal without a rule: %T %v", err, err)
			}
			return
		}
		if c.root == "" || c.dir != filepath.Join(staging, c.root) {
			t.Fatalf("candidate root %q dir %q", c.root, c.dir)
		}
		sum := sha256.Sum256(data)
		if c.sha256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("digest %s is not the archive's", c.sha256)
		}
		if len(written) != len(c.files) {
			t.Fatalf("candidate lists %d files, staging holds %d: %v", len(c.files), len(written), written)
		}
		var total int64
		for rel, size := range written {
			inRoot, ok := strings.CutPrefix(rel, c.root+"/")
			if !ok || !c.files[inRoot] {
				t.Fatalf("staged %q is not a listed file of root %q", rel, c.root)
			}
			if size > fuzzLimits.entry {
				t.Fatalf("staged %q has %d bytes, over the %d-byte entry bound", rel, size, fuzzLimits.entry)
			}
			total += size
		}
		if total > fuzzLimits.expanded || len(c.files) > fuzzLimits.entries {
			t.Fatalf("staged %d files of %d bytes; bounds %d, %d", len(c.files), total, fuzzLimits.entries, fuzzLimits.expanded)
		}
	})
}

// stagedFiles checks nothing but the archive and staging/ exists in tmp and that staging
// holds only directories and regular files, and returns each file's size by its path
// below staging.
func stagedFiles(t *testing.T, tmp, staging string) map[string]int64 {
	top, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range top {
		if e.Name() != "b.tar" && e.Name() != "staging" {
			t.Fatalf("extract wrote %q outside staging", e.Name())
		}
	}
	files := map[string]int64{}
	err = filepath.WalkDir(staging, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(staging, p)
		switch {
		case info.IsDir():
		case info.Mode().IsRegular():
			files[filepath.ToSlash(rel)] = info.Size()
		default:
			t.Fatalf("staging holds %q of mode %v", rel, info.Mode())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
