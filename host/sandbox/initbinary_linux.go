package sandbox

import (
	"os"
	"path/filepath"
	"sync"
)

// The program Wrap starts as the init. By default the host re-executes its own binary, which
// always works but pays the start-up of everything linked into it (octet-host: ~25 MB, a
// hundred package initialisers) on every start. octet-sandbox-init (host/cmd) links this
// package alone; when it lies beside the host's executable, the host starts it instead.
// A policy names its format (sandboxinit.PolicyFormat), so an init of another build refuses it
// rather than apply part of it.

// InitBinaryName is the dedicated init's file name, looked up beside the host's executable.
const InitBinaryName = "octet-sandbox-init"

var (
	initMu   sync.Mutex
	initPath string // "" until looked up
)

// UseInit makes Wrap start path as the init ("" restores the lookup): for tests and benches,
// whose binaries do not lie beside an octet-sandbox-init.
func UseInit(path string) {
	initMu.Lock()
	defer initMu.Unlock()
	initPath = path
}

// initBinary is the init to start: the dedicated one beside the executable when it is an
// executable regular file, else the host's own binary.
func initBinary() string {
	initMu.Lock()
	defer initMu.Unlock()
	if initPath == "" {
		initPath = "/proc/self/exe"
		if self, err := os.Executable(); err == nil {
			cand := filepath.Join(filepath.Dir(self), InitBinaryName)
			if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				initPath = cand
			}
		}
	}
	return initPath
}
