package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/octet-kit/octet/host/sandbox/sandboxinit"
)

// Filesystem modes of capabilities.filesystem.
const (
	FilesystemNone         = sandboxinit.FilesystemNone
	FilesystemWorkspace    = sandboxinit.FilesystemWorkspace
	FilesystemUnrestricted = sandboxinit.FilesystemUnrestricted
)

// DefaultProcesses is the process budget when the manifest declares none.
const DefaultProcesses = 256

// Policy is what the init enforces, fully resolved by the host (sandboxinit.Policy).
type Policy = sandboxinit.Policy

// Unavailable is the error of a start the sandbox cannot confine (sandboxinit.Unavailable).
type Unavailable = sandboxinit.Unavailable

// Request is what the host knows when it builds a Policy: the manifest's capabilities and the
// places of this start.
type Request struct {
	Name       string
	Dir        string // extension directory
	Exe        string // resolved entrypoint
	Workspace  string
	Scratch    string
	StateDirs  []string // further directories the host gives the extension to write
	Home       string   // the operator's home, for "~/" paths
	HostPath   string   // PATH as the extension sees it
	Filesystem string
	Network    bool
	Connect    []string
	Read       []string
	Write      []string
	MemoryMB   int64
	CPUSeconds int64
	OpenFiles  int64
	Processes  int64
}

// Build resolves r into a Policy: relative paths against the extension directory, "~/"
// against the home, and the runtime the entrypoint needs (runtime.go).
func Build(r Request) (*Policy, error) {
	p := &Policy{Name: r.Name, Filesystem: r.Filesystem, Network: r.Network,
		CPUSeconds: r.CPUSeconds, OpenFiles: r.OpenFiles, Processes: r.Processes}
	if p.Filesystem == "" {
		p.Filesystem = FilesystemWorkspace
	}
	if r.MemoryMB > 0 {
		p.MemoryBytes = r.MemoryMB << 20
	}
	if p.Processes == 0 {
		p.Processes = DefaultProcesses
	}
	for i, c := range r.Connect {
		port, err := ParseHostPort(c)
		if err != nil {
			return nil, fmt.Errorf("capabilities.connect[%d]: %v", i, err)
		}
		p.Connect = append(p.Connect, port)
		lines, err := resolveHost(c)
		if err != nil {
			return nil, fmt.Errorf("capabilities.connect[%d]: %v", i, err)
		}
		p.Hosts = append(p.Hosts, lines...)
	}
	if len(r.Connect) > 0 && !r.Network {
		return nil, fmt.Errorf("capabilities.connect names destinations but capabilities.network is false")
	}
	read := runtimePaths(r.Dir, r.Exe, r.HostPath)
	read = append(read, r.Dir)
	for i, s := range r.Read {
		abs, err := resolvePath(s, r.Dir, r.Home)
		if err != nil {
			return nil, fmt.Errorf("capabilities.read[%d]: %v", i, err)
		}
		read = append(read, abs)
	}
	write := []string{}
	if r.Scratch != "" {
		write = append(write, r.Scratch)
	}
	write = append(write, r.StateDirs...)
	if p.Filesystem == FilesystemWorkspace && r.Workspace != "" {
		write = append(write, r.Workspace)
	}
	for i, s := range r.Write {
		abs, err := resolvePath(s, r.Dir, r.Home)
		if err != nil {
			return nil, fmt.Errorf("capabilities.write[%d]: %v", i, err)
		}
		if err := ensureOwnDir(abs, r.Dir); err != nil {
			return nil, fmt.Errorf("capabilities.write[%d]: %v", i, err)
		}
		write = append(write, abs)
	}
	p.Read, p.Write = dedupe(read), dedupe(write)
	return p, nil
}

// ensureOwnDir creates a declared write directory that lies inside the extension's own
// directory and does not exist yet (a build cache such as ".bin"): Landlock grants only
// paths that exist, and the extension, which may only read its own directory, could not
// create it itself. Paths elsewhere are never created.
func ensureOwnDir(abs, dir string) error {
	if dir == "" || !strings.HasPrefix(abs, filepath.Clean(dir)+string(filepath.Separator)) {
		return nil
	}
	if _, err := os.Lstat(abs); !os.IsNotExist(err) {
		return nil
	}
	// The nearest existing ancestor, links resolved, must still lie in the extension's
	// directory: a link inside it must not make the host create directories elsewhere.
	anc := filepath.Dir(abs)
	for {
		if _, err := os.Lstat(anc); err == nil {
			break
		}
		anc = filepath.Dir(anc)
	}
	realDir, err1 := filepath.EvalSymlinks(dir)
	realAnc, err2 := filepath.EvalSymlinks(anc)
	if err1 != nil || err2 != nil || (realAnc != realDir && !strings.HasPrefix(realAnc, realDir+string(filepath.Separator))) {
		return fmt.Errorf("%s lies outside the extension's directory once links are resolved; not created", abs)
	}
	return os.MkdirAll(abs, 0o755)
}

// ParseHostPort checks "host:port" and returns the port.
func ParseHostPort(s string) (uint16, error) {
	host, portText, err := net.SplitHostPort(s)
	if err != nil || host == "" {
		return 0, fmt.Errorf("%q is not host:port", s)
	}
	if net.ParseIP(host) == nil && !validHostName(host) {
		return 0, fmt.Errorf("%q: %q is neither an IP address nor a host name (letters, digits, dots and hyphens, or *)", s, host)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil || port == 0 {
		return 0, fmt.Errorf("%q: port %q is not 1-65535", s, portText)
	}
	return uint16(port), nil
}

// resolveHost resolves the name of a "host:port" entry (an address needs nothing) into
// hosts-file lines, within a few seconds: the extension, which has no DNS under an
// allowlist, finds the names it declared there.
func resolveHost(entry string) ([]string, error) {
	host, _, _ := net.SplitHostPort(entry)
	if net.ParseIP(host) != nil || host == "localhost" || host == "*" {
		return nil, nil // an address, the namespace's own name, or any host
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupHost(ctx, host)
	if err != nil || len(addrs) == 0 {
		return nil, fmt.Errorf("%q: cannot resolve %s when the extension starts (it has no DNS of its own under an allowlist): %v", entry, host, err)
	}
	lines := make([]string, len(addrs))
	for i, a := range addrs {
		lines[i] = a + " " + host
	}
	return lines, nil
}

// validHostName accepts what the manifest schema's ManifestHostPort does for a host that is
// not a bracketed IPv6 address: letters, digits, dots and hyphens (1-253), or "*" for any.
func validHostName(h string) bool {
	if h == "*" {
		return true
	}
	if h == "" || len(h) > 253 {
		return false
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// resolvePath makes a declared path absolute and clean. It does not require it to exist.
func resolvePath(s, dir, home string) (string, error) {
	if strings.ContainsRune(s, 0) {
		return "", fmt.Errorf("%q contains a NUL byte", s)
	}
	switch {
	case s == "~" || strings.HasPrefix(s, "~/"):
		if home == "" {
			return "", fmt.Errorf("%q names the home directory but HOME is not set", s)
		}
		return filepath.Join(home, strings.TrimPrefix(s, "~")), nil
	case filepath.IsAbs(s):
		return filepath.Clean(s), nil
	default:
		return filepath.Join(dir, s), nil
	}
}

// dedupe sorts paths and drops repeats and paths beneath another one in the list.
func dedupe(paths []string) []string {
	sort.Strings(paths)
	out := paths[:0]
	for _, p := range paths {
		if p == "" {
			continue
		}
		if n := len(out); n > 0 && (p == out[n-1] || strings.HasPrefix(p, strings.TrimSuffix(out[n-1], "/")+"/")) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// statOK reports whether path exists.
func statOK(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
