package admission

import (
	"fmt"
	"path/filepath"

	"github.com/octet-kit/octet/host/discovery"
)

// State is an admission outcome, shown by `octet-host list` and `status`.
type State string

// Admission outcomes. Only Admitted starts a process.
const (
	Admitted  State = "admitted"
	Invalid   State = "invalid"   // the manifest has diagnostics
	Disabled  State = "disabled"  // not enabled by config or --enable-extension
	Untrusted State = "untrusted" // enabled, but no trust grant and no full access
	SafeMode  State = "safe_mode" // --safe-mode never starts executables
)

// Policy is everything admission looks at besides the extension itself.
type Policy struct {
	Enabled         []string // config enabled_extensions
	EnableOnce      []string // --enable-extension (this invocation only)
	PersistentTrust []string // config trusted_extensions + OCTET_TRUSTED_EXTENSIONS
	TrustOnce       []string // --trust-extension (this invocation, the selected source only)
	// Explicit lists extension directories named directly on the command line of `call` and
	// `certify`: naming one is taken as enabling and trusting it for that invocation.
	Explicit   []string
	SafeMode   bool
	FullAccess bool
}

// Decision is the admission outcome for one entry.
type Decision struct {
	State  State  `json:"state"`
	Reason string `json:"reason,omitempty"`
	// Grant is a copyable persistent trust grant for an enabled but untrusted entry.
	Grant string `json:"grant,omitempty"`
}

// Admit decides whether e may start. The order of the gates matters: an invalid manifest is
// never started, safe mode wins over every grant, and enablement is checked before trust so
// a trust grant alone never starts anything.
func (p *Policy) Admit(e *discovery.Entry) Decision {
	if !e.Valid() {
		return Decision{State: Invalid, Reason: "the manifest has diagnostics"}
	}
	if p.SafeMode {
		return Decision{State: SafeMode, Reason: "--safe-mode never starts executable extensions, even with trust grants"}
	}
	explicit := p.isExplicit(e)
	if !explicit && !has(p.Enabled, e.Name) && !has(p.EnableOnce, e.Name) {
		return Decision{State: Disabled, Reason: fmt.Sprintf("not enabled; add %q to enabled_extensions or pass --enable-extension %s", e.Name, e.Name)}
	}
	if explicit || p.FullAccess || p.trusted(e) {
		return Decision{State: Admitted}
	}
	grant := e.Name
	if e.Source != discovery.Global {
		grant = e.Name + "@" + e.ManifestPath
	}
	return Decision{State: Untrusted, Grant: grant,
		Reason: fmt.Sprintf("enabled but not trusted; add %q to trusted_extensions, or pass --trust-extension %s for this run", grant, e.Name)}
}

// trusted applies the grant rules: a bare persistent name covers only the global root; a
// name@path grant covers exactly that manifest; a one-shot name covers the selected source.
func (p *Policy) trusted(e *discovery.Entry) bool {
	exact := e.Name + "@" + filepath.Clean(e.ManifestPath)
	for _, g := range p.PersistentTrust {
		if g == exact || (g == e.Name && e.Source == discovery.Global) {
			return true
		}
		if name, path, ok := cut(g); ok && name == e.Name && filepath.Clean(path) == filepath.Clean(e.ManifestPath) {
			return true
		}
	}
	return has(p.TrustOnce, e.Name)
}

func (p *Policy) isExplicit(e *discovery.Entry) bool {
	for _, d := range p.Explicit {
		if abs, err := filepath.Abs(d); err == nil && abs == e.Dir {
			return true
		}
	}
	return false
}

func cut(g string) (string, string, bool) {
	for i := 0; i < len(g); i++ {
		if g[i] == '@' {
			return g[:i], g[i+1:], true
		}
	}
	return g, "", false
}

func has(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
