package bridge

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/sandbox"
)

func TestServerSandboxConfig(t *testing.T) {
	for _, bad := range []struct{ json, want string }{
		{`{"servers":{"s":{"command":"x","sandbox":{"read":["rel/path"]}}}}`, "servers.s.sandbox.read[0]: \"rel/path\" must be an absolute path"},
		{`{"servers":{"s":{"command":"x","sandbox":{"connect":["host"]}}}}`, "servers.s.sandbox.connect[0]"},
		{`{"servers":{"s":{"command":"x","sandbox":{"connect":["h:0"]}}}}`, "port \"0\" is not 1-65535"},
		{`{"servers":{"s":{"command":"x","sandbox":{"paths":[]}}}}`, "unknown field"},
	} {
		if _, err := ParseConfig([]byte(bad.json)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.json, err, bad.want)
		}
	}
	c, err := ParseConfig([]byte(`{"servers":{"s":{"command":"x","sandbox":{"read":["/data"],"connect":["api.example.com:443"]}}}}`))
	if err != nil || c.Servers["s"].Sandbox == nil || c.Servers["s"].Sandbox.Connect[0] != "api.example.com:443" {
		t.Fatalf("valid sandbox block: %+v %v", c, err)
	}
}

// A server with a sandbox block reads what it names and its own directory, and nothing
// else; the bridge itself keeps its access.
func TestServerStartsConfined(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	allowed, outside, work := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{allowed, outside} {
		if err := os.WriteFile(filepath.Join(d, "f"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := `for f in "$@"; do if cat "$f" >/dev/null 2>&1; then echo ok; else echo denied; fi; done`
	cmd := exec.Command("sh", "-c", script, "sh", filepath.Join(allowed, "f"), filepath.Join(outside, "f"))
	cmd.Dir = work
	s := &ServerSandbox{Read: []string{allowed}}
	p, err := s.policy("probe", cmd)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tr := &stdioTransport{cmd: cmd, policy: p}
	if err := tr.start(); err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(out)
	_ = cmd.Wait()
	if got := strings.Fields(string(b)); len(got) != 2 || got[0] != "ok" || got[1] != "denied" {
		t.Fatalf("probes: %q, want ok denied", got)
	}
	if _, err := os.ReadFile(filepath.Join(outside, "f")); err != nil {
		t.Fatalf("the bridge lost access: %v", err)
	}
}
