package conformance

import (
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/sandbox"
)

// sandboxFor is the sandbox a session starts in: the one the manifest declares, as the host
// would start it, unless the run or the session opts out.
func sandboxFor(opts StartOptions, m *manifest.Manifest) *sandbox.Request {
	if opts.Unconfined {
		return nil
	}
	return m.Capabilities.SandboxRequest()
}
