package bundle_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
	"github.com/octet-kit/octet/host/internal/hostile"
	"github.com/octet-kit/octet/host/internal/memcap"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// readRecord writes body as install.json and reads it back; "" when it was accepted.
func readRecord(t *testing.T, body []byte) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, bundle.RecordFile), body, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := bundle.ReadRecord(dir); err != nil {
		if !errors.Is(err, &bundle.Error{Rule: bundle.RuleRecord}) {
			t.Fatalf("refused with the wrong rule: %v", err)
		}
		return err.Error()
	}
	return ""
}

// install.json nested to MAX_JSON_DEPTH is refused for what it is (an unknown field), one
// level past it for its nesting, naming the file and the byte; 30,000 levels (under the
// 64 KiB record cap) are refused within 16 MiB, measured in a capped child process.
func TestInstallRecordNestingBound(t *testing.T) {
	if got := readRecord(t, hostile.JSONArrays(protocol.MaxJSONDepth)); strings.Contains(got, "nesting") || !strings.Contains(got, `field "x" is not known`) {
		t.Fatalf("at the bound: %s", got)
	}
	got := readRecord(t, hostile.JSONArrays(protocol.MaxJSONDepth+1))
	if !strings.Contains(got, "install.json") || !strings.Contains(got, "nesting deeper than 128 levels (MAX_JSON_DEPTH) at byte 132") {
		t.Fatalf("one past the bound: %s", got)
	}
	t.Run("30000", func(t *testing.T) {
		body := hostile.JSONArrays(30_000)
		m := memcap.Run(t, 16<<20, func() string { return readRecord(t, body) })
		t.Logf("allocated %d KiB, peak RSS %d MiB: %s", m.AllocBytes>>10, m.PeakRSS>>20, m.Result)
		if !strings.Contains(m.Result, "nesting deeper than 128 levels") {
			t.Fatalf("refusal %q does not name the bound", m.Result)
		}
	})
}
