package main

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
)

// goFixture builds the Go conformance fixture (progress, notifications, confirmations,
// presentation) and returns its directory.
func goFixture(t *testing.T) string {
	t.Helper()
	_, file, _, _ := goruntime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "examples", "go", "conformance-fixture")
	build := exec.Command("go", "build", "-o", filepath.Join(dir, ".bin", "extension"), ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the fixture: %v\n%s", err, out)
	}
	return dir
}

// `call` renders what a real extension sends while a tool runs, on stderr, in order: its
// progress as a bar, a notification, a presentation snapshot, and confirmations with what
// answered them (the --script for one, the default policy for the other). stdout keeps
// exactly one JSON line per tool.
func TestCallRendersProgressNotificationSnapshotAndScriptedConfirmation(t *testing.T) {
	dir := goFixture(t)
	e := newEnv(t)
	sc := filepath.Join(t.TempDir(), "answers.toml")
	os.WriteFile(sc, []byte("[[confirmations]]\nmatch = \"Deploy\"\nconfirmed = true\n"), 0o644)
	code, out, errOut := octetHost(t, "", "call", "--script", sc, "--state", e.state, "--config", e.config, dir,
		"progress_n", `{"n":2}`,
		"notify", `{"message":"Saved 3 files","level":"success","title":"Sync"}`,
		"present", `{"revision":4,"activities":2}`,
		"ask", `{"kind":"confirm","prompt":"Deploy to prod?"}`,
		"ask", `{"kind":"confirm","prompt":"Drop the table?"}`)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if n := strings.Count(out, "\n"); n != 5 || !strings.Contains(out, `"structured_content":{"answer":true}`) || !strings.Contains(out, `{"answer":false}`) {
		t.Fatalf("stdout is not one JSON line per tool with the answers:\n%s", out)
	}
	want := []string{
		"[conformance-fixture] progress ▕██████████░░░░░░░░░░▏  50%  1/2  step 1\n",
		"[conformance-fixture] progress ▕████████████████████▏ 100%  2/2  step 2\n",
		"[conformance-fixture] success: Sync: Saved 3 files\n",
		"[conformance-fixture] presentation rev 4\n[conformance-fixture]   activities\n[conformance-fixture]     ● running  activity 0\n[conformance-fixture]     ● running  activity 1\n",
		"[conformance-fixture] confirm “Deploy to prod?” → confirmed (scripted)\n",
		"[conformance-fixture] confirm “Drop the table?” → denied: no scripted answer (default policy)\n",
	}
	at := 0
	for _, w := range want {
		i := strings.Index(errOut[at:], w)
		if i < 0 {
			t.Fatalf("stderr lacks, after what came before it:\n%s\nstderr:\n%s", w, errOut)
		}
		at += i + len(w)
	}
}
