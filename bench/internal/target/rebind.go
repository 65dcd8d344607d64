package target

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"
)

// Rebind writes a copy of dir's manifest into outDir/<name>/extension.toml whose
// entrypoint is command (absolute, no args) and returns the copy's directory. The Go
// fixture's launcher checks its sources and builds when they changed; the benchmark
// starts the binary setup built instead, so a cold start measures the SDK, not the
// launcher's check or the toolchain.
func Rebind(dir, command, outDir string) (string, error) {
	src := filepath.Join(dir, "extension.toml")
	var m map[string]any
	if _, err := toml.DecodeFile(src, &m); err != nil {
		return "", fmt.Errorf("manifest %s: %w", src, err)
	}
	name, _ := m["name"].(string)
	if name == "" {
		return "", fmt.Errorf("manifest %s has no name", src)
	}
	m["entrypoint"] = map[string]any{"command": command}
	cp := filepath.Join(outDir, name)
	if err := os.MkdirAll(cp, 0o755); err != nil {
		return "", err
	}
	f, err := os.Create(filepath.Join(cp, "extension.toml"))
	if err != nil {
		return "", err
	}
	err = toml.NewEncoder(f).Encode(m)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("write %s: %w", cp, err)
	}
	return cp, nil
}
