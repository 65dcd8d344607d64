// Package sandboxinit is the sandbox's init: the program the host starts in the extension's
// new namespaces, which confines itself by the policy the host resolved and then starts the
// entrypoint (host/sandbox describes the whole). It is kept apart from the host's side so
// the dedicated init binary (host/cmd/octet-sandbox-init) links little more than this: every
// start pays for the init's start-up.
package sandboxinit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Filesystem modes of capabilities.filesystem.
const (
	FilesystemNone         = "none"
	FilesystemWorkspace    = "workspace"
	FilesystemUnrestricted = "unrestricted"
)

// Policy is what the init enforces, fully resolved by the host: absolute paths, ports, and
// budgets. It crosses to the init as JSON in an environment variable the init removes.
type Policy struct {
	Format     string   `json:"format"`     // PolicyFormat of the host that built it
	Name       string   `json:"name"`       // the extension, for messages
	Filesystem string   `json:"filesystem"` // none, workspace or unrestricted
	Read       []string `json:"read"`       // read and execute, beneath each path
	Write      []string `json:"write"`      // read, write, create, remove, beneath each path
	Network    bool     `json:"network"`    // false: a new, empty network namespace
	// Connect lists the TCP ports connect may reach when Network is true and the manifest
	// named destinations; nil with Network true leaves TCP unconfined.
	Connect []uint16 `json:"connect"`
	// Hosts are "address name" lines for the names Connect lists, resolved by the host:
	// under an allowlist the extension has no UDP, so no DNS (netpolicy_linux.go).
	Hosts []string `json:"hosts,omitempty"`
	// Budgets, 0 meaning none: RLIMIT_DATA bytes, RLIMIT_CPU seconds, RLIMIT_NOFILE and
	// RLIMIT_NPROC.
	MemoryBytes int64 `json:"memory_bytes"`
	CPUSeconds  int64 `json:"cpu_seconds"`
	OpenFiles   int64 `json:"open_files"`
	Processes   int64 `json:"processes"`
	// PidsCgroup is the pids cgroup the host moves the init into before it starts anything,
	// so the process budget binds a root host (host/sandbox/pids_linux.go); Wrap sets it.
	PidsCgroup string `json:"pids_cgroup,omitempty"`
	// Seccomp is the filter program the host compiled for this policy (struct sock_filter
	// entries, 8 bytes each, little-endian fields), so the init need not link the compiler.
	Seccomp []byte `json:"seccomp,omitempty"`
}

// PolicyFormat names this build's Policy encoding; an init (a dedicated octet-sandbox-init
// of another build) refuses a policy of another format instead of applying part of it.
// Change it whenever Policy's fields or their meaning change.
const PolicyFormat = "octet-sandbox-policy-2"

// EnvKey carries the encoded Policy to the init.
const EnvKey = "OCTET_SANDBOX_INIT"

func (p *Policy) Encode() (string, error) {
	q := *p
	q.Format = PolicyFormat
	b, err := json.Marshal(&q)
	return string(b), err
}

func decodePolicy(s string) (*Policy, error) {
	var p Policy
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("sandbox policy: %v (is the init of another build than the host?)", err)
	}
	if p.Format != PolicyFormat {
		return nil, fmt.Errorf("sandbox policy format %q, this init reads %q: the init is of another build than the host", p.Format, PolicyFormat)
	}
	return &p, nil
}

// Describe is the one-line summary list, status and the inspector show.
func (p *Policy) Describe() string {
	fs := p.Filesystem
	if fs == FilesystemUnrestricted {
		fs = "unrestricted (filesystem unconfined)"
	}
	netw := "none"
	if p.Network {
		netw = "any"
		if len(p.Connect) > 0 {
			ports := make([]string, len(p.Connect))
			for i, c := range p.Connect {
				ports[i] = strconv.Itoa(int(c))
			}
			netw = "tcp ports " + strings.Join(ports, ",")
		}
	}
	return fmt.Sprintf("filesystem %s, network %s, processes %d", fs, netw, p.Processes)
}

// Unavailable is the error of a start the sandbox cannot confine; the host reports it as
// sandbox_unavailable. Missing names the mechanism.
type Unavailable struct{ Missing string }

func (e *Unavailable) Error() string {
	return "the sandbox needs " + e.Missing + "; run it unconfined only if you accept that: --no-sandbox, or sandbox = \"off\" in the host config (for the host or [extensions.NAME])"
}
