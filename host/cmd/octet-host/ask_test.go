package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// withCallStdin makes `call` read answers from s for one test.
func withCallStdin(t *testing.T, s string) {
	old := callStdin
	callStdin = strings.NewReader(s)
	t.Cleanup(func() { callStdin = old })
}

// call --ask stdin puts what the script does not answer to the user: the question on
// stderr, the answer from stdin (y confirms; a line is an input value); the script still
// answers first, and what it answers is never asked.
func TestCallAsksWhatTheScriptLeavesOpen(t *testing.T) {
	dir := goFixture(t)
	e := newEnv(t)
	sc := filepath.Join(t.TempDir(), "answers.toml")
	os.WriteFile(sc, []byte("[[confirmations]]\nmatch = \"Scripted\"\nconfirmed = false\n"), 0o644)
	withCallStdin(t, "y\nAda Lovelace\n")
	code, out, errOut := octetHost(t, "", "call", "--ask", "stdin", "--script", sc, "--state", e.state, "--config", e.config, dir,
		"ask", `{"kind":"confirm","prompt":"Scripted: really?"}`,
		"ask", `{"kind":"confirm","prompt":"Deploy to prod?"}`,
		"ask", `{"kind":"input","prompt":"Your name"}`,
		"ask", `{"kind":"input","prompt":"Token","secret":true}`)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], `{"answer":false}`) || !strings.Contains(lines[1], `{"answer":true}`) ||
		!strings.Contains(lines[2], `{"answer":"Ada Lovelace"}`) || !strings.Contains(lines[3], `{"answer_sha256":null}`) {
		t.Fatalf("answers:\n%s\nstderr:\n%s", out, errOut)
	}
	for _, want := range []string{
		"[conformance-fixture] confirm “Scripted: really?” → denied (scripted)\n",
		"[conformance-fixture] confirm “Deploy to prod?” [y/N] [conformance-fixture] confirm “Deploy to prod?” → confirmed (answered by the user)\n",
		"[conformance-fixture] input “Your name”: [conformance-fixture] input “Your name” → answered\n",
		// A pipe cannot hide what is typed: a secret is not asked there.
		"[conformance-fixture] input “Token” (secret, not shown): \n  (a secret cannot be typed here without being shown: cancelled)\n",
		"[conformance-fixture] input “Token” (secret) → cancelled\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "Scripted: really?” [y/N]") {
		t.Errorf("a scripted confirmation was asked:\n%s", errOut)
	}
}

// Without a terminal, --ask auto (the default) asks nothing: the default policy denies,
// and stdin is not read.
func TestCallDoesNotAskWithoutATerminal(t *testing.T) {
	dir := goFixture(t)
	e := newEnv(t)
	withCallStdin(t, "y\n")
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir, "ask", `{"kind":"confirm","prompt":"Deploy?"}`)
	if code != exitOK || !strings.Contains(out, `{"answer":false}`) || strings.Contains(errOut, "[y/N]") ||
		!strings.Contains(errOut, "→ denied: no scripted answer (default policy)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := octetHost(t, "", "call", "--ask", "sometimes", "--state", e.state, "--config", e.config, dir, "echo"); code != exitStartup ||
		!strings.Contains(errOut, `--ask "sometimes" is not auto, stdin or never`) {
		t.Fatalf("bad --ask: exit %d\n%s", code, errOut)
	}
}

// In the run console, the line typed while a question is open is its answer, not a
// command; the lines before and after are commands.
func TestRunConsoleTakesTheAnswerFromTheNextLine(t *testing.T) {
	dir := goFixture(t)
	e := newEnv(t)
	stdin, feed := io.Pipe()
	out, errOut := newWatchedBuffer(), newWatchedBuffer()
	exited := make(chan int, 1)
	go func() {
		exited <- runConsole([]string{"--ask", "stdin", "--state", e.state, "--config", e.config, "--global-dir", e.global, dir}, stdin, out, errOut)
	}()
	out.waitFor(t, "NAME", time.Minute)
	io.WriteString(feed, `call ask {"kind":"confirm","prompt":"Ship it?"}`+"\n")
	out.waitFor(t, "[conformance-fixture] confirm “Ship it?” [y/N] ", time.Minute)
	io.WriteString(feed, "yes\n")
	out.waitFor(t, `"structured_content":{"answer":true}`, time.Minute)
	out.waitFor(t, "→ confirmed (answered by the user)", time.Minute)
	io.WriteString(feed, "status\nquit\n")
	select {
	case code := <-exited:
		if code != exitOK || strings.Contains(out.String(), "commands: call") {
			t.Fatalf("exit %d (or the answer ran as a command)\n%s\n%s", code, out.String(), errOut.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("run did not exit:\n%s", out.String())
	}
	feed.Close()
}
