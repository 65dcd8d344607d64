package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/store"
)

type doctorReport struct {
	OK       bool      `json:"ok"`
	Findings []finding `json:"findings"`
}

func runDoctorJSON(t *testing.T, args ...string) (int, doctorReport) {
	t.Helper()
	code, out, errOut := octetHost(t, "", append([]string{"doctor", "--json"}, args...)...)
	var r doctorReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("doctor output: %v\n%s%s", err, out, errOut)
	}
	return code, r
}

func findingOf(r doctorReport, check, severity, subject string) *finding {
	for i, f := range r.Findings {
		if f.Check == check && f.Severity == severity && strings.Contains(f.Subject, subject) {
			return &r.Findings[i]
		}
	}
	return nil
}

// TestDoctor: a clean setup passes (exit 0, the store's integrity ok); a bad settings value,
// a broken manifest, a state directory others can read and a corrupted database are each an
// error with a fix, and make the exit code 1.
func TestDoctor(t *testing.T) {
	e := newEnv(t)
	good := testext.WriteSettings(t, e.exts, "cfg")
	if err := os.WriteFile(e.config, []byte("[extensions.cfg.settings]\nlimit = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), e.state)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	base := []string{"--state", e.state, "--config", e.config, "--global-dir", e.global, "--workspace", e.base}
	code, r := runDoctorJSON(t, append(base, good)...)
	if code != exitOK || !r.OK || findingOf(r, "store", "ok", "state.db") == nil || findingOf(r, "manifest", "ok", "cfg") == nil {
		t.Fatalf("clean: %d %+v", code, r)
	}

	if err := os.WriteFile(e.config, []byte("[extensions.cfg.settings]\nlimit = 30\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(e.exts, "broken")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "extension.toml"), []byte("name = \"broken\"\nversion = \"x\"\n"), 0o644)
	if err := os.Chmod(e.state, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(e.state, store.DatabaseFile)
	data, err := os.ReadFile(db)
	if err != nil || len(data) < 8192 {
		t.Fatalf("database: %d bytes, %v", len(data), err)
	}
	for i := 4096; i < 8192; i++ { // the second page: a b-tree page becomes garbage
		data[i] = 0xA5
	}
	if err := os.WriteFile(db, data, 0o600); err != nil {
		t.Fatal(err)
	}
	code, r = runDoctorJSON(t, append(base, good, bad)...)
	if code != exitFailed || r.OK {
		t.Fatalf("broken: exit %d, want 1: %+v", code, r)
	}
	for _, want := range []struct{ check, subject, message, fix string }{
		{"settings", "cfg", "setting limit refused: /limit:", "[extensions.cfg.settings]"},
		{"manifest", "broken", "version", "octet-host validate"},
		{"permissions", e.state, "mode 0755", "chmod 700"},
		{"store", "state.db", "", "move the state directory aside"},
	} {
		f := findingOf(r, want.check, "error", want.subject)
		if f == nil || !strings.Contains(f.Message, want.message) || !strings.Contains(f.Fix, want.fix) {
			t.Errorf("%s %s: %+v in %+v", want.check, want.subject, f, r.Findings)
		}
	}
}
