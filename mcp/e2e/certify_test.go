package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCertifyGreen: octet-host certify passes octet-mcp, configured with the everything
// server, with no failed check.
func TestCertifyGreen(t *testing.T) {
	needNPM(t)
	cmd, args := everythingCmd()
	dir := bridgeDir(t, map[string]any{"every": map[string]any{"command": cmd, "args": args}})
	// The everything server's long-running operation lasts 10 s with its default
	// arguments, as long as certify waits for one call: what certify's [certify] table is for.
	manifest := filepath.Join(dir, "extension.toml")
	m, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	m = append(m, []byte("\n[certify]\ntools = [\n  { name = \"every_trigger-long-running-operation\", skip = true, reason = \"runs 10 s with its default arguments (the everything server's long-operation demo)\" },\n]\n")...)
	if err := os.WriteFile(manifest, m, 0o644); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(filepath.Join(bin, "octet-host"), "certify", "--json", dir)
	c.Dir = t.TempDir()
	out, err := c.Output()
	var rep struct {
		Passed, Failed, Errored int
		Checks                  []struct{ Name, Status, Detail string }
	}
	s := string(out)
	if i := strings.Index(s, "{"); i >= 0 {
		s = s[i:]
	}
	if jerr := json.Unmarshal([]byte(s), &rep); jerr != nil {
		t.Fatalf("certify: %v %v\n%s", err, jerr, out)
	}
	for _, ch := range rep.Checks {
		if ch.Status != "pass" && ch.Status != "skip" {
			t.Errorf("%s: %s: %s", ch.Name, ch.Status, ch.Detail)
		}
	}
	if err != nil || rep.Failed != 0 || rep.Errored != 0 || rep.Passed < 10 {
		t.Errorf("certify: %v; %d passed, %d failed, %d errored", err, rep.Passed, rep.Failed, rep.Errored)
	}
}
