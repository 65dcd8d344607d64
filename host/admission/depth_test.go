package admission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/internal/hostile"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The host config is TOML like a manifest: nested past MAX_JSON_DEPTH it is refused
// before it is decoded, naming the file, line and column; at the bound it is refused for
// what it is (an unknown key).
func TestConfigNestingBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	for levels, want := range map[int]string{
		protocol.MaxJSONDepth:     "unknown key(s) x",
		protocol.MaxJSONDepth + 1: "config " + path + ": line 1, column 132: nesting deeper than 128 levels (MAX_JSON_DEPTH)",
	} {
		if err := os.WriteFile(path, hostile.ScriptArrays(levels), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := admission.LoadConfig(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d levels: %v, want %q", levels, err, want)
		}
	}
}
