package bundle_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
)

func contains(err error, subs ...string) bool {
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			return false
		}
	}
	return true
}

var ok = file("hello/extension.toml", toml("hello", "1.0.0", "0.4", "=0.8.0", "python3"))

func with(extra ...entry) []entry { return append([]entry{dir("hello/"), ok}, extra...) }

func noise(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return string(b)
}

// Every refusal names the entry (or file) it is about and its rule, and leaves the root
// without the bundle and without staging leftovers.
func TestRefusals(t *testing.T) {
	long := "hello/" + strings.Repeat("a", bundle.MaxPathBytes)
	deep := "hello" + strings.Repeat("/d", bundle.MaxPathDepth)
	cases := []struct {
		name    string
		entries []entry
		raw     string // archive bytes instead of entries
		small   bool   // shrink the size and count limits
		rule    bundle.Rule
		names   string // the entry the message must name
		says    string
	}{
		{name: "archive too large", small: true, entries: with(file("hello/blob", noise(3000))), rule: bundle.RuleArchiveSize, names: "b.tar.gz", says: "at most 2000"},
		{name: "entry too large", small: true, entries: with(file("hello/big", strings.Repeat("x", 600))), rule: bundle.RuleEntrySize, names: "hello/big", says: "at most 500"},
		{name: "manifest too large", small: true, entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.4", "=0.8.0", "python3")+"#"+strings.Repeat("x", 400))}, rule: bundle.RuleManifestSize, names: "hello/extension.toml", says: "at most 300"},
		{name: "expanded too large", small: true, entries: with(file("hello/a", strings.Repeat("x", 480)), file("hello/b", strings.Repeat("x", 480))), rule: bundle.RuleExpandedSize, names: "hello/b", says: "more than 1000 bytes"},
		{name: "too many entries", small: true, entries: with(file("hello/a", ""), file("hello/b", ""), file("hello/c", "")), rule: bundle.RuleEntryCount, names: "hello/c", says: "more than 4 entries"},
		{name: "path too long", entries: with(file(long, "")), rule: bundle.RulePathLength, names: long, says: "at most 200"},
		{name: "path too deep", entries: with(file(deep, "")), rule: bundle.RulePathLength, names: deep, says: "at most 16 allowed"},
		{name: "non-UTF-8 path", entries: with(file("hello/caf\xe9.txt", "")), rule: bundle.RulePathEncoding, names: "hello/caf\uFFFD.txt", says: "not valid UTF-8"},
		{name: "absolute path", entries: with(file("/hello/x", "")), rule: bundle.RulePathPortable, names: "/hello/x", says: "absolute"},
		{name: "dot-dot", entries: with(file("hello/../x", "")), rule: bundle.RulePathPortable, names: "hello/../x", says: `".." element`},
		{name: "dot", entries: []entry{file("./hello/extension.toml", "")}, rule: bundle.RulePathPortable, names: "./hello/extension.toml", says: `"." element`},
		{name: "empty element", entries: with(file("hello//x", "")), rule: bundle.RulePathPortable, names: "hello//x", says: "empty path element"},
		{name: "backslash", entries: with(file(`hello/a\b`, "")), rule: bundle.RulePathPortable, names: `hello/a\b`, says: "backslash"},
		{name: "control character", entries: with(file("hello/a\x01b", "")), rule: bundle.RulePathPortable, names: "hello/a?b", says: "control character U+0001"},
		{name: "reserved character", entries: with(file("hello/a:b", "")), rule: bundle.RulePathPortable, names: "hello/a:b", says: "':'"},
		{name: "reserved device name", entries: with(file("hello/CON.txt", "")), rule: bundle.RulePathPortable, names: "hello/CON.txt", says: "reserved device name"},
		{name: "trailing dot", entries: with(file("hello/notes.", "")), rule: bundle.RulePathPortable, names: "hello/notes.", says: "ends in a dot"},
		{name: "empty archive", entries: nil, rule: bundle.RuleRoot, names: "b.tar.gz", says: "no entries"},
		{name: "top-level file", entries: []entry{file("README", "")}, rule: bundle.RuleRoot, names: "README", says: "top level"},
		{name: "multiple roots", entries: with(file("other/x", "")), rule: bundle.RuleMultipleRoots, names: "other/x", says: `outside the root directory "hello"`},
		{name: "duplicate", entries: with(file("hello/a", "1"), file("hello/a", "2")), rule: bundle.RuleDuplicate, names: "hello/a", says: "duplicate entry"},
		{name: "duplicate directory", entries: with(dir("hello/d/"), dir("hello/d/")), rule: bundle.RuleDuplicate, names: "hello/d/", says: "duplicate entry"},
		{name: "case-only duplicate", entries: with(file("hello/README", ""), file("hello/readme", "")), rule: bundle.RuleDuplicate, names: "hello/readme", says: `only in case from "hello/README"`},
		{name: "case-only duplicate directory", entries: with(file("hello/Docs/a", ""), file("hello/docs/b", "")), rule: bundle.RuleDuplicate, names: "hello/docs/b", says: "only in case"},
		{name: "file then directory", entries: with(file("hello/a", ""), file("hello/a/b", "")), rule: bundle.RuleDuplicate, names: "hello/a/b", says: "cannot also be a directory"},
		{name: "directory then file", entries: with(file("hello/a/b", ""), file("hello/a", "")), rule: bundle.RuleDuplicate, names: "hello/a", says: "cannot also be a file"},
		{name: "symlink", entries: with(entry{name: "hello/l", typ: tar.TypeSymlink, link: "/etc/passwd"}), rule: bundle.RuleLink, names: "hello/l", says: "symbolic link"},
		{name: "hard link", entries: with(entry{name: "hello/h", typ: tar.TypeLink, link: "hello/extension.toml"}), rule: bundle.RuleLink, names: "hello/h", says: "hard link"},
		{name: "character device", entries: with(entry{name: "hello/c", typ: tar.TypeChar}), rule: bundle.RuleEntryType, names: "hello/c", says: "device"},
		{name: "block device", entries: with(entry{name: "hello/b", typ: tar.TypeBlock}), rule: bundle.RuleEntryType, names: "hello/b", says: "device"},
		{name: "FIFO", entries: with(entry{name: "hello/f", typ: tar.TypeFifo}), rule: bundle.RuleEntryType, names: "hello/f", says: "FIFO"},
		{name: "other entry type", entries: with(entry{name: "hello/v", typ: 'V'}), rule: bundle.RuleEntryType, names: "hello/v", says: `type "V"`},
		{name: "install.json shipped", entries: with(file("hello/install.json", "{}")), rule: bundle.RuleReserved, names: "hello/install.json", says: "written by the host"},
		{name: "install.json in another case", entries: with(file("hello/Install.JSON", "{}")), rule: bundle.RuleReserved, names: "hello/Install.JSON", says: "written by the host"},
		{name: "manifest missing", entries: []entry{dir("hello/"), file("hello/run", "")}, rule: bundle.RuleManifest, names: "hello/extension.toml", says: "missing"},
		{name: "manifest invalid", entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.4", "=0.8.0", "python3")+"colour = 1\n")}, rule: bundle.RuleManifest, names: "hello/extension.toml", says: "[unknown_field]"},
		{name: "directory name differs", entries: []entry{file("hello/extension.toml", toml("other", "1.0.0", "0.4", "=0.8.0", "python3"))}, rule: bundle.RuleDirectoryName, names: "hello/", says: `manifest name "other"`},
		{name: "API 0.1", entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.1", "=0.8.0", "python3"))}, rule: bundle.RuleAPIVersion, names: "hello/extension.toml", says: "unpackaged"},
		{name: "API 0.3", entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.3", "=0.8.0", "python3"))}, rule: bundle.RuleManifest, names: "hello/extension.toml", says: "[api_version]"},
		{name: "requires_octet missing", entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.4", "", "python3"))}, rule: bundle.RuleRequiresOctet, names: "hello/extension.toml", says: `requires_octet = "=0.8.0"`},
		{name: "requires_octet other version", entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.4", "=0.7.0", "python3"))}, rule: bundle.RuleManifest, names: "hello/extension.toml", says: "[requires_octet]"},
		{name: "entrypoint escapes", entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.4", "=0.8.0", "../other/run"))}, rule: bundle.RuleManifest, names: "hello/extension.toml", says: "[entrypoint]"},
		{name: "entrypoint not shipped", entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.4", "=0.8.0", "bin/run"))}, rule: bundle.RuleEntrypoint, names: "hello/extension.toml", says: `"bin/run" is not a regular file`},
		{name: "entrypoint is a directory", entries: []entry{file("hello/extension.toml", toml("hello", "1.0.0", "0.4", "=0.8.0", "./bin")), dir("hello/bin/")}, rule: bundle.RuleEntrypoint, names: "hello/extension.toml", says: "not a regular file"},
		{name: "not an archive", raw: "name = \"hello\"\n" + strings.Repeat("x", 1024), rule: bundle.RuleArchive, names: "b.tar.gz", says: "not a readable tar"},
		{name: "corrupt gzip", raw: "\x1f\x8b\x08\x00garbage", rule: bundle.RuleArchive, names: "b.tar.gz", says: "gzip"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newManager(t)
			if c.small {
				bundle.SetLimits(m, 2000, 500, 300, 1000, 4)
			}
			var path string
			if c.raw != "" {
				path = filepath.Join(t.TempDir(), "b.tar.gz")
				os.WriteFile(path, []byte(c.raw), 0o644)
			} else {
				path = archive(t, c.entries, false)
			}
			_, err := m.Install(path)
			var be *bundle.Error
			if !errors.As(err, &be) || be.Rule != c.rule {
				t.Fatalf("want rule %s, got %v", c.rule, err)
			}
			if !contains(err, c.names, c.says, "["+string(c.rule)+"]") {
				t.Fatalf("message must name %q, say %q and its rule:\n%v", c.names, c.says, err)
			}
			if names := rootNames(t, m.Root); len(names) != 1 || names[0] != ".lock" {
				t.Fatalf("refused install left %v in the root", names)
			}
		})
	}
}

// A tar writer cannot encode a NUL in a name, so the path check is exercised directly.
func TestNULInPathRefused(t *testing.T) {
	_, err := bundle.EntryPath("hello/a\x00b", false)
	if !errors.Is(err, &bundle.Error{Rule: bundle.RulePathPortable}) || !contains(err, `hello/a\x00b`, "NUL") {
		t.Fatalf("NUL: %v", err)
	}
	if elems, err := bundle.EntryPath("hello/docs/", true); err != nil || strings.Join(elems, ",") != "hello,docs" {
		t.Fatalf("directory entry: %v %v", elems, err)
	}
}

// A gzip stream that goes on (zeros after the tar's end) beyond the expanded bound is
// refused even though no header claims a large size.
func TestExpandedStreamBound(t *testing.T) {
	m := newManager(t)
	bundle.SetLimits(m, 1<<20, 500, 300, 1000, 10)
	tarPath := archive(t, with(), true)
	data, _ := os.ReadFile(tarPath)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Write(make([]byte, 12<<20))
	zw.Close()
	path := filepath.Join(t.TempDir(), "bomb.tar.gz")
	os.WriteFile(path, gz.Bytes(), 0o644)
	if _, err := m.Install(path); !errors.Is(err, &bundle.Error{Rule: bundle.RuleExpandedSize}) || !contains(err, "bomb.tar.gz") {
		t.Fatalf("want expanded_size, got %v", err)
	}
}
