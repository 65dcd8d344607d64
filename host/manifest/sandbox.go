package manifest

import (
	"os"

	"github.com/octet-kit/octet/host/sandbox"
)

// SandboxRequest turns the capabilities into what the sandbox enforces; the process package
// fills in the places of each start.
func (c Capabilities) SandboxRequest() *sandbox.Request {
	home, _ := os.UserHomeDir()
	return &sandbox.Request{
		Home: home, Filesystem: c.Filesystem, Network: c.Network, Connect: c.Connect,
		Read: c.Read, Write: c.Write, MemoryMB: c.Budgets.MemoryMB, CPUSeconds: c.Budgets.CPUSeconds,
		OpenFiles: c.Budgets.OpenFiles, Processes: c.Budgets.Processes,
	}
}
