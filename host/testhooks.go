package host

import "sync/atomic"

// Test hooks, set only by tests (export_test.go), so a test can hold the host at a lifecycle
// transition instead of hoping a race happens. Each gets the extension's name.
var (
	// hookInstalling runs as install begins: the initialize answer has been read and
	// checked, and the generation is not current yet.
	hookInstalling atomic.Pointer[func(ext string)]
	// hookWaitReady runs when a request or notification the extension wrote after its
	// initialize answer starts waiting for the generation to be installed.
	hookWaitReady atomic.Pointer[func(ext string)]
)

func runHook(h *atomic.Pointer[func(string)], ext string) {
	if f := h.Load(); f != nil {
		(*f)(ext)
	}
}
