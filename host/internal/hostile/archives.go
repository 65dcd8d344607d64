package hostile

import (
	"archive/tar"
	"bytes"
	"time"
)

// archiveEntry is one member of a hostile bundle archive.
type archiveEntry struct {
	name string
	typ  byte
	body string
	link string
}

// bundleManifest is a valid bundle manifest for the extension name.
func bundleManifest(name string) string {
	return "name = \"" + name + "\"\nversion = \"1.0.0\"\napi_version = \"0.4\"\nrequires_octet = \"=0.8.0\"\n\n[entrypoint]\ncommand = \"run\"\n"
}

// tarOf writes entries as an uncompressed tar with fixed times and owners, so the bytes
// depend only on the entries (the committed corpus copy is compared with this output).
func tarOf(entries ...archiveEntry) []byte {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, Linkname: e.link,
			ModTime: time.Unix(1_700_000_000, 0).UTC(), Format: tar.FormatPAX}
		switch e.typ {
		case tar.TypeDir:
			h.Mode = 0o755
		case tar.TypeReg:
			h.Size = int64(len(e.body))
		}
		if err := w.WriteHeader(h); err != nil {
			panic(err)
		}
		if e.typ == tar.TypeReg {
			_, _ = w.Write([]byte(e.body))
		}
	}
	_ = w.Close()
	return b.Bytes()
}

func adir(name string) archiveEntry { return archiveEntry{name: name, typ: tar.TypeDir} }
func afile(name, body string) archiveEntry {
	return archiveEntry{name: name, typ: tar.TypeReg, body: body}
}

// Archives are the hostile bundle archives of the corpus (host/testdata/hostile/archives),
// by file name: each breaks one archive rule a bundle install must refuse. The deep one is
// the 524-byte archive: a manifest nested past depth inside a valid bundle.
func Archives(depth int) map[string][]byte {
	ok := func(extra ...archiveEntry) []byte {
		return tarOf(append([]archiveEntry{adir("hello/"), afile("hello/extension.toml", bundleManifest("hello")), afile("hello/run", "#!/bin/sh\n")}, extra...)...)
	}
	return map[string][]byte{
		"dot-dot.tar":           ok(afile("hello/../escape", "x")),
		"absolute.tar":          ok(afile("/etc/hello", "x")),
		"symlink.tar":           ok(archiveEntry{name: "hello/passwd", typ: tar.TypeSymlink, link: "/etc/passwd"}),
		"hard-link.tar":         ok(archiveEntry{name: "hello/h", typ: tar.TypeLink, link: "hello/run"}),
		"fifo.tar":              ok(archiveEntry{name: "hello/pipe", typ: tar.TypeFifo}),
		"char-device.tar":       ok(archiveEntry{name: "hello/tty", typ: tar.TypeChar}),
		"duplicate.tar":         ok(afile("hello/a", "1"), afile("hello/a", "2")),
		"case-duplicate.tar":    ok(afile("hello/README", ""), afile("hello/readme", "")),
		"install-json.tar":      ok(afile("hello/install.json", `{"schema":1}`)),
		"control-char-path.tar": ok(afile("hello/a\x07<b>&\"q\".txt", "")),
		"non-utf8-path.tar":     ok(afile("hello/caf\xe9", "")),
		"backslash-path.tar":    ok(afile(`hello/..\..\x`, "")),
		"two-roots.tar":         ok(afile("other/x", "")),
		"deep-manifest.tar":     tarOf(adir("deep/"), afile("deep/extension.toml", string(TOMLArrays(depth+1)))),
		"quotes-in-manifest.tar": tarOf(adir("hello/"), afile("hello/extension.toml",
			"name = \"hello\"\nversion = \"1.0.0\"\napi_version = \"0.4\"\nrequires_octet = \"=0.8.0\"\ndescription = \"say \\\"hi\\\" \\\\ <b>&amp;</b> \\u0007 é\"\ncolour = \"<script>\"\n\n[entrypoint]\ncommand = \"run\"\n"),
			afile("hello/run", "")),
		"entrypoint-escapes.tar": tarOf(adir("hello/"), afile("hello/extension.toml",
			"name = \"hello\"\nversion = \"1.0.0\"\napi_version = \"0.4\"\nrequires_octet = \"=0.8.0\"\n\n[entrypoint]\ncommand = \"../../bin/sh\"\n")),
	}
}
