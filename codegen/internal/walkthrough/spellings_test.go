package walkthrough_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// wireSpelling matches the wire method kv.commit written out: as a string, in prose or in a
// comment. A member access of the SDKs' service objects (ext.kv.commit(...), self.kv.commit)
// is the API, not the wire name, so a match preceded by an identifier or a dot, or followed
// by a call, does not count.
var wireSpelling = regexp.MustCompile(`(^|[^A-Za-z0-9_.])kv\.commit($|[^A-Za-z0-9_(])`)

// handWritten lists the tracked files a maintainer writes by hand: generated files (their
// header says so), tests and their data, JSON data and the bundled inspector aside, as the
// issue that set the bound counted them.
func handWritten(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		switch {
		case strings.HasSuffix(f, "_test.go"), strings.Contains(f, "/tests/"), strings.Contains(f, "/test/"),
			strings.Contains(f, "testdata/"), strings.HasSuffix(f, ".json"), strings.HasSuffix(f, ".golden"),
			strings.HasPrefix(f, "host/devui/assets/"), strings.HasPrefix(f, "schema/vectors/"):
			continue
		}
		files = append(files, f)
	}
	return files
}

func generated(b []byte) bool {
	head := b
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		if j := bytes.IndexByte(b[i+1:], '\n'); j >= 0 {
			head = b[:i+1+j]
		}
	}
	h := strings.ToLower(string(head))
	return strings.Contains(h, "code generated") || strings.Contains(h, "do not edit")
}

// TestKVCommitSpellings: adding or renaming a wire method must not fan out. The name lives in
// the schema and the generated code; hand-written code calls the generated descriptors and
// service objects, and prose points at the generated reference. At most 14 hand-written files
// may spell kv.commit (34 did when the bound was set).
func TestKVCommitSpellings(t *testing.T) {
	var hits []string
	for _, f := range handWritten(t) {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil || generated(b) {
			continue
		}
		if wireSpelling.Match(b) {
			hits = append(hits, f)
		}
	}
	const bound = 14
	if len(hits) > bound {
		t.Errorf("kv.commit is spelled in %d hand-written files, at most %d allowed:\n  %s", len(hits), bound, strings.Join(hits, "\n  "))
	}
	t.Logf("kv.commit spelled in %d hand-written files (bound %d)", len(hits), bound)
}

// The pattern itself: the wire name counts, the API call and longer names do not.
func TestWireSpellingPattern(t *testing.T) {
	for s, want := range map[string]bool{
		"sends kv.commit once":    true,
		"`kv.commit`":             true,
		`"kv.commit"`:             true,
		"kv.commit":               true,
		"ext.kv.commit(writes)":   false,
		"self.kv.commit (writes)": false,
		"kv.commit(writes)":       false,
		"kv.committed":            false,
		"mykv.commit":             false,
		"KV.Commit":               false,
	} {
		if got := wireSpelling.MatchString(s); got != want {
			t.Errorf("%q: match %v, want %v", s, got, want)
		}
	}
}
