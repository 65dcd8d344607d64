package script_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/hostile"
	"github.com/octet-kit/octet/host/internal/memcap"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

func deepScript(levels int) []byte { return hostile.ScriptArrays(levels) }

func parseErr(data []byte) string {
	if _, err := script.Parse("s.toml", data, "/"); err != nil {
		return err.Error()
	}
	return ""
}

// A script nested to MAX_JSON_DEPTH is refused for what it is (an unknown key), one level
// past it for its nesting with the file, line and column; 1,000,000 levels (2 MB, under
// the 4 MiB script cap) are refused within 64 MiB in a capped child; a secrets file alike,
// and a script over the size cap is refused before it is decoded.
func TestScriptNestingAndSizeBounds(t *testing.T) {
	if got := parseErr(deepScript(protocol.MaxJSONDepth)); strings.Contains(got, "nesting") || !strings.Contains(got, "unknown keys x") {
		t.Fatalf("at the bound: %s", got)
	}
	if got := parseErr(deepScript(protocol.MaxJSONDepth + 1)); got != "script s.toml: line 1, column 132: nesting deeper than 128 levels (MAX_JSON_DEPTH)" {
		t.Fatalf("one past the bound: %q", got)
	}
	secrets := filepath.Join(t.TempDir(), "secrets.toml")
	if err := os.WriteFile(secrets, deepScript(protocol.MaxJSONDepth+1), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _ := script.Parse("s.toml", nil, "/")
	if err := s.AddSecretsFile(secrets); err == nil || !strings.Contains(err.Error(), "secrets file "+secrets+": line 1, column 132: nesting deeper") {
		t.Fatalf("secrets file: %v", err)
	}
	if got := parseErr(make([]byte, script.MaxScriptBytes+1)); !strings.Contains(got, "is larger than 4194304 bytes") {
		t.Fatalf("oversized: %q", got)
	}
	t.Run("1000000", func(t *testing.T) {
		data := deepScript(1_000_000)
		m := memcap.Run(t, 64<<20, func() string { return parseErr(data) })
		t.Logf("allocated %d KiB, peak RSS %d MiB: %s", m.AllocBytes>>10, m.PeakRSS>>20, m.Result)
		if !strings.Contains(m.Result, "nesting deeper than 128 levels") {
			t.Fatalf("refusal %q does not name the bound", m.Result)
		}
	})
}
