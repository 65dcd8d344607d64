package target

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// Extension is an extension directory as the harness needs it: its manifest as
// JSON (what the host sends in initialize) and its resolved entrypoint.
type Extension struct {
	Dir          string
	ManifestPath string
	Name         string
	Version      string
	Manifest     json.RawMessage
	Command      string // absolute path of the executable
	Args         []string
	Tools        []string // contributes.tools, for naming a target by what it carries
}

// LoadExtension reads dir/extension.toml. The command is resolved the way the host
// resolves it: beside the manifest first, then on PATH; relative names with "/" stay
// inside dir.
func LoadExtension(dir string) (*Extension, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "extension.toml")
	var m map[string]any
	if _, err := toml.DecodeFile(path, &m); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("manifest %s as JSON: %w", path, err)
	}
	var head struct {
		Name       string `json:"name"`
		Version    string `json:"version"`
		Entrypoint struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"entrypoint"`
		Contributes struct {
			Tools []string `json:"tools"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	if head.Entrypoint.Command == "" {
		return nil, fmt.Errorf("manifest %s: entrypoint.command is empty", path)
	}
	cmd, err := resolveCommand(dir, head.Entrypoint.Command)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	return &Extension{Dir: dir, ManifestPath: path, Name: head.Name, Version: head.Version,
		Manifest: raw, Command: cmd, Args: head.Entrypoint.Args, Tools: head.Contributes.Tools}, nil
}

func resolveCommand(dir, command string) (string, error) {
	if filepath.IsAbs(command) {
		return command, nil
	}
	if strings.Contains(command, "/") {
		return filepath.Join(dir, command), nil
	}
	if beside := filepath.Join(dir, command); isFile(beside) {
		return beside, nil
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if p := filepath.Join(d, command); filepath.IsAbs(d) && isFile(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("entrypoint command %q not found beside the manifest or on PATH", command)
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
