//go:build mage

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
)

// replayTools is the session recorded per language: a call with progress, a notification,
// a presentation snapshot and a confirmation answered by a script, so a replay covers the
// extension's notifications and its requests to the host as well as results.
var replayTools = []string{
	"echo", `{"value":{"n":1,"s":"é"}}`,
	"progress_n", `{"n":3}`,
	"notify", `{"message":"replayed","level":"info"}`,
	"present", `{"revision":1,"activities":2}`,
	"ask", `{"kind":"confirm","prompt":"Deploy?"}`,
}

var recordedSessionRE = regexp.MustCompile(`recorded session (\S+) `)

// ReplayDemo records one session of each language's conformance fixture (octet-host call
// --record) and replays it against the same extension (octet-host replay), which must find
// no difference: a regression test of the fixtures' determinism and of replay itself. The
// demo runs it after the conformance matrix.
func ReplayDemo() error {
	tmp, err := os.MkdirTemp("", "octet-replay-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "octet-host")
	if err := run(".", nil, "go", "build", "-o", bin, "./host/cmd/octet-host"); err != nil {
		return err
	}
	script := filepath.Join(tmp, "answers.toml")
	if err := os.WriteFile(script, []byte("[[confirmations]]\nmatch = \"Deploy\"\nconfirmed = true\n"), 0o644); err != nil {
		return err
	}
	for _, lang := range []string{"go", "python", "typescript"} {
		state := filepath.Join(tmp, lang)
		dir := filepath.Join(root(), "examples", lang, "conformance-fixture")
		rec := exec.Command(bin, append([]string{"call", "--record", "--script", script, "--state", state, "--config", filepath.Join(tmp, "none.toml"), dir}, replayTools...)...)
		rec.Dir = root()
		var stderr bytes.Buffer
		rec.Stderr = &stderr
		if err := rec.Run(); err != nil {
			return fmt.Errorf("replay demo: recording %s: %v\n%s", lang, err, stderr.String())
		}
		m := recordedSessionRE.FindSubmatch(stderr.Bytes())
		if m == nil {
			return fmt.Errorf("replay demo: %s: no recorded session in\n%s", lang, stderr.String())
		}
		fmt.Printf("replay demo (%s): ", lang)
		if err := run(".", nil, bin, "replay", "--state", state, string(m[1]), "--against", dir); err != nil {
			return fmt.Errorf("replay demo: %s differs from its recording: %w", lang, err)
		}
	}
	return nil
}
