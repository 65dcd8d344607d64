package bridge

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/octet-kit/octet/host/sandbox"
)

// ServerSandbox is what one stdio MCP server may do ("sandbox" in its configuration): read
// its own directory (the command's and its working directory), its runtime and the read
// paths; write the write paths; connect to the TCP ports of connect and nowhere else. The
// server is confined by Landlock, in the bridge's own namespaces (docs/sandbox.md). A server
// without "sandbox" runs as the bridge does.
type ServerSandbox struct {
	Read    []string `json:"read,omitempty"`
	Write   []string `json:"write,omitempty"`
	Connect []string `json:"connect,omitempty"`
}

// check validates the block at the config path at.
func (s *ServerSandbox) check(at string) error {
	if s == nil {
		return nil
	}
	for i, c := range s.Connect {
		if _, err := sandbox.ParseHostPort(c); err != nil {
			return fmt.Errorf("%s.sandbox.connect[%d]: %v", at, i, err)
		}
	}
	for key, list := range map[string][]string{"read": s.Read, "write": s.Write} {
		for i, p := range list {
			if !filepath.IsAbs(p) {
				return fmt.Errorf("%s.sandbox.%s[%d]: %q must be an absolute path", at, key, i, p)
			}
		}
	}
	return nil
}

// policy resolves the block for a server started as cmd.
func (s *ServerSandbox) policy(name string, cmd *exec.Cmd) (*sandbox.Policy, error) {
	exe, err := exec.LookPath(cmd.Path)
	if err != nil {
		return nil, fmt.Errorf("server %s: %v", name, err)
	}
	exe, _ = filepath.Abs(exe)
	cmd.Path = exe
	read := append([]string{}, s.Read...)
	if cmd.Dir != "" {
		read = append(read, cmd.Dir)
	}
	return sandbox.Build(sandbox.Request{
		Name: name, Dir: filepath.Dir(exe), Exe: exe, Filesystem: sandbox.FilesystemNone,
		Network: len(s.Connect) > 0, Connect: s.Connect, Read: read, Write: s.Write,
		HostPath: os.Getenv("PATH"),
	})
}

// start starts the server, under its sandbox when it has one.
func (t *stdioTransport) start() error {
	if t.policy == nil {
		return t.cmd.Start()
	}
	return sandbox.StartLandlocked(t.cmd, t.policy)
}
