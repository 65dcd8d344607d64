package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"
)

var recordedSession = regexp.MustCompile(`recorded session (\S+) `)

// recordOne runs call --record and returns the session id it printed.
func recordOne(t *testing.T, e *env, args ...string) string {
	t.Helper()
	code, out, errOut := octetHost(t, "", append([]string{"call", "--record", "--state", e.state, "--config", e.config}, args...)...)
	m := recordedSession.FindStringSubmatch(errOut)
	if code != exitOK || m == nil {
		t.Fatalf("call --record: exit %d\n%s\n%s", code, out, errOut)
	}
	return m[1]
}

// copyExample copies examples/LANG/NAME into a temp dir, its launcher pointed at this kit.
func copyExample(t *testing.T, lang, name string) string {
	t.Helper()
	_, file, _, _ := goruntime.Caller(0)
	kit, _ := filepath.Abs(filepath.Join(filepath.Dir(file), "..", "..", ".."))
	src := filepath.Join(kit, "examples", lang, name)
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	run, _ := os.ReadFile(filepath.Join(dst, "run"))
	fixed := regexp.MustCompile(`(?m)^kit=.*$`).ReplaceAll(run, []byte("kit="+kit))
	os.WriteFile(filepath.Join(dst, "run"), fixed, 0o755)
	// The copy lives outside the kit: its manifest's kit-relative reads become absolute.
	m, _ := os.ReadFile(filepath.Join(dst, "extension.toml"))
	m = bytes.ReplaceAll(m, []byte(`"../../..`), []byte(`"`+kit))
	os.WriteFile(filepath.Join(dst, "extension.toml"), m, 0o644)
	return dst
}

// A recorded session replayed against an unchanged copy of the example exits 0; against a
// copy whose tool answers differently it exits 1 and prints the changed frame with the
// pointer that changed, under the request it answered.
func TestReplayFindsAChangedExample(t *testing.T) {
	e := newEnv(t)
	orig := copyExample(t, "python", "hello-world")
	session := recordOne(t, e, orig, "hello_world", `{"name":"Ada"}`)

	code, out, errOut := octetHost(t, "", "replay", "--state", e.state, session)
	if code != exitOK || !strings.Contains(out, "no differences") {
		t.Fatalf("unchanged replay: exit %d\n%s\n%s", code, out, errOut)
	}

	changed := copyExample(t, "python", "hello-world")
	py := filepath.Join(changed, "extension.py")
	src, _ := os.ReadFile(py)
	if !strings.Contains(string(src), "Hello, ") {
		t.Fatalf("the example no longer says Hello:\n%s", src)
	}
	os.WriteFile(py, []byte(strings.Replace(string(src), "Hello, ", "Howdy, ", 1)), 0o644)
	code, out, errOut = octetHost(t, "", "replay", "--state", e.state, session, "--against", changed)
	if code != exitFailed {
		t.Fatalf("changed replay: exit %d, want %d\n%s\n%s", code, exitFailed, out, errOut)
	}
	for _, want := range []string{
		"2 frames differ (- recorded, + replayed)\n",
		"@@ tool/call 2 (hello_world)\n",
		`- {"id":2,"jsonrpc":"2.0","result":{"content":[{"text":"Hello, Ada!","type":"text"}]}}`,
		`+ {"id":2,"jsonrpc":"2.0","result":{"content":[{"text":"Howdy, Ada!","type":"text"}]}}`,
		`    /result/content/0/text: "Hello, Ada!" → "Howdy, Ada!"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "@@ initialize") || strings.Contains(out, "@@ shutdown") {
		t.Errorf("unchanged requests are reported:\n%s", out)
	}
}

// The extension's own requests are answered from the recording (kv/get three times, a
// confirmation answered by the recorded script), progress and a presentation snapshot
// are compared with their request: an unchanged replay of the Go fixture is equal.
func TestReplayAnswersTheExtensionsRequestsFromTheRecording(t *testing.T) {
	dir := goFixture(t)
	e := newEnv(t)
	sc := filepath.Join(t.TempDir(), "answers.toml")
	os.WriteFile(sc, []byte("[[confirmations]]\nmatch = \"Deploy\"\nconfirmed = true\n"), 0o644)
	session := recordOne(t, e, "--script", sc, dir, "callback_n", `{"n":3}`, "progress_n", `{"n":3}`,
		"present", `{"revision":1,"activities":2}`, "ask", `{"kind":"confirm","prompt":"Deploy?"}`)
	// No --script now: the confirmation is answered from the recording, so it is still yes.
	code, out, errOut := octetHost(t, "", "replay", "--state", e.state, session)
	if code != exitOK || !strings.Contains(out, "no differences") {
		t.Fatalf("replay: exit %d\n%s\n%s", code, out, errOut)
	}
	// The report holds them, equal in both runs.
	code, out, errOut = octetHost(t, "", "replay", "--json", "--state", e.state, session)
	if code != exitOK || strings.Count(out, `\"method\":\"kv.get\"`) != 3 || strings.Count(out, `\"method\":\"confirmation/request\"`) != 1 ||
		strings.Count(out, `\"method\":\"$/progress\"`) != 3 || strings.Count(out, `\"method\":\"presentation/update\"`) != 1 || strings.Contains(out, `"op": "-"`) {
		t.Fatalf("replay --json: exit %d\n%s\n%s", code, out, errOut)
	}
}
