package conformance

import (
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/sandbox"
)

// Grant is what a sandbox check declares on top of the manifest's [capabilities], as an
// operator widening an extension's permissions would: paths to read and write and
// host:port destinations to connect to (which turn the network on for them alone).
type Grant struct {
	Read, Write, Connect []string
}

// sandboxFor is the sandbox a session starts in: the one the manifest declares, as the host
// would start it, unless the run or the session opts out.
func sandboxFor(opts StartOptions, m *manifest.Manifest) *sandbox.Request {
	if opts.Unconfined {
		return nil
	}
	r := m.Capabilities.SandboxRequest()
	if g := opts.Grant; g != nil {
		r.Read = append(append([]string{}, r.Read...), g.Read...)
		r.Write = append(append([]string{}, r.Write...), g.Write...)
		r.Connect = append(append([]string{}, r.Connect...), g.Connect...)
		r.Network = r.Network || len(g.Connect) > 0
	}
	return r
}
