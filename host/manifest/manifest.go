package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// MaxManifestBytes bounds how much of an extension.toml is read. A larger file is refused.
const MaxManifestBytes = 256 << 10

// FileName is the manifest file every extension directory holds.
const FileName = "extension.toml"

// Manifest is a validated extension.toml.
type Manifest struct {
	Name          string       `json:"name"`
	Version       string       `json:"version"`
	APIVersion    string       `json:"api_version"`
	RequiresOctet string       `json:"requires_octet,omitempty"`
	Description   string       `json:"description,omitempty"`
	Entrypoint    Entrypoint   `json:"entrypoint"`
	Capabilities  Capabilities `json:"capabilities"`
	Contributes   Contributes  `json:"contributes"`
	Runtime       Runtime      `json:"runtime"`
	State         State        `json:"state"`
	Session       Session      `json:"session"`
	Certify       Certify      `json:"certify"`

	// JSON is the validated manifest as JSON-compatible values, sent verbatim in initialize.
	JSON map[string]any `json:"-"`
	// Wire is the same manifest as the generated protocol type initialize carries.
	Wire protocol.Manifest `json:"-"`
	// Path is the manifest file; Dir the extension directory holding it.
	Path string `json:"-"`
	Dir  string `json:"-"`
	// Digest is the lowercase hex SHA-256 of the manifest file's bytes (the principal's identity).
	Digest string `json:"-"`
}

// Entrypoint is how the host starts the extension: a command and its arguments, no shell.
type Entrypoint struct {
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
}

// Capabilities are the extension's policy: what the operator consents to and, on Linux, what
// the sandbox (host/sandbox) enforces.
type Capabilities struct {
	Filesystem  string   `json:"filesystem,omitempty"`
	Process     bool     `json:"process,omitempty"`
	Network     bool     `json:"network,omitempty"`
	Connect     []string `json:"connect,omitempty"`
	Read        []string `json:"read,omitempty"`
	Write       []string `json:"write,omitempty"`
	Budgets     Budgets  `json:"budgets,omitzero"`
	Secrets     []string `json:"secrets,omitempty"`
	Environment []string `json:"environment,omitempty"`
}

// Budgets are the resource limits of capabilities.budgets; zero is the host default.
type Budgets struct {
	MemoryMB   int64 `json:"memory_mb,omitempty"`
	CPUSeconds int64 `json:"cpu_seconds,omitempty"`
	OpenFiles  int64 `json:"open_files,omitempty"`
	Processes  int64 `json:"processes,omitempty"`
}

// Contributes lists what the extension offers the host.
type Contributes struct {
	Tools         []string `json:"tools,omitempty"`
	Commands      []string `json:"commands,omitempty"`
	Hooks         []string `json:"hooks,omitempty"`
	UI            []string `json:"ui,omitempty"`
	Context       bool     `json:"context,omitempty"`
	ToolRenderers []string `json:"tool_renderers,omitempty"`
	Notifications bool     `json:"notifications,omitempty"`
	Confirmations bool     `json:"confirmations,omitempty"`
	Presentation  bool     `json:"presentation,omitempty"`
}

// Runtime selects the lifecycle and sharing; defaults are filled in by validation.
type Runtime struct {
	Lifecycle string `json:"lifecycle"`
	Sharing   string `json:"sharing"`
}

// Certify is the [certify] table: how octet-host certify calls the extension's tools.
type Certify struct {
	Tools []CertifyTool `json:"tools,omitempty"`
}

// CertifyTool is one tool's entry: skipped with a reason, or called with examples besides
// the generated arguments.
type CertifyTool struct {
	Name     string            `json:"name"`
	Skip     bool              `json:"skip,omitempty"`
	Reason   string            `json:"reason,omitempty"`
	Examples []json.RawMessage `json:"examples,omitempty"`
}

// CertifyEntry returns the [certify] entry for a tool, if there is one.
func (m *Manifest) CertifyEntry(tool string) (CertifyTool, bool) {
	for _, t := range m.Certify.Tools {
		if t.Name == tool {
			return t, true
		}
	}
	return CertifyTool{}, false
}

// Principal is the stable identity reverse services bind to: name@sha256(manifest bytes).
func (m *Manifest) Principal() string { return m.Name + "@" + m.Digest }

// Options carry what validation needs to know about the host.
type Options struct {
	// OctetVersion is the host's octet version; requires_octet must pin exactly it.
	OctetVersion string
}

// Load reads path (a regular, non-symlink file of at most MaxManifestBytes) and validates it.
// It returns the manifest only when there are no diagnostics.
func Load(path string, opts Options) (*Manifest, []Diagnostic) {
	data, err := ReadBounded(path, MaxManifestBytes)
	if err != nil {
		return nil, []Diagnostic{{File: path, Rule: RuleRead, Message: err.Error()}}
	}
	return Parse(data, path, opts)
}

// ReadBounded reads a regular, non-symlink file of at most limit bytes.
func ReadBounded(path string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("file does not exist")
		}
		return nil, fmt.Errorf("cannot stat: %v", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("is a symbolic link; manifests must be regular files")
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("is not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read: %v", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("is larger than %d bytes", limit)
	}
	return data, nil
}

// Parse validates manifest bytes read from file (used for diagnostics and containment checks).
func Parse(data []byte, file string, opts Options) (*Manifest, []Diagnostic) {
	doc, err := decodeTOML(data)
	if err != nil {
		return nil, []Diagnostic{{File: file, Rule: RuleSyntax, Message: err.Error()}}
	}
	v := &validator{file: file, dir: filepath.Dir(file), opts: opts}
	v.validate(doc)
	v.diags = mergeSchema(v.diags, schemaCheck(file, doc))
	if len(v.diags) > 0 {
		return nil, v.diags
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, []Diagnostic{{File: file, Rule: RuleType, Message: "manifest cannot be encoded as JSON: " + err.Error()}}
	}
	m := &Manifest{}
	if err := json.Unmarshal(raw, m); err != nil {
		return nil, []Diagnostic{{File: file, Rule: RuleType, Message: "manifest does not decode: " + err.Error()}}
	}
	if err := json.Unmarshal(raw, &m.Wire); err != nil {
		return nil, []Diagnostic{{File: file, Rule: RuleType, Message: "manifest does not decode: " + err.Error()}}
	}
	if m.Runtime.Lifecycle == "" {
		m.Runtime.Lifecycle = "legacy_resident"
	}
	if m.Runtime.Sharing == "" {
		m.Runtime.Sharing = "isolated"
	}
	if m.Capabilities.Filesystem == "" {
		m.Capabilities.Filesystem = "workspace"
	}
	sum := sha256.Sum256(data)
	m.JSON, m.Path, m.Dir, m.Digest = doc, file, filepath.Dir(file), hex.EncodeToString(sum[:])
	return m, nil
}
