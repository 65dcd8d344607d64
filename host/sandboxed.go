package host

import (
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/sandbox"
)

// sandboxRequest is the sandbox an extension starts in, nil when the operator opted it out.
func sandboxRequest(o *Options, m *manifest.Manifest) *sandbox.Request {
	if o.Unconfined != nil && o.Unconfined(m.Name) {
		return nil
	}
	return m.Capabilities.SandboxRequest()
}

// Confined reports whether the extension runs in the sandbox, and under which policy (the
// current generation's; nil before its first start or when unconfined).
func (e *Extension) Confined() (bool, *sandbox.Policy) {
	o := &e.host.opts
	if o.Unconfined != nil && o.Unconfined(e.Name()) {
		return false, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if g := e.cur; g != nil && g.proc != nil {
		return true, g.proc.Policy()
	}
	return true, nil
}
