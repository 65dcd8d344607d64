package host

import (
	"fmt"
	"sort"

	"github.com/octet-kit/octet/host/discovery"
)

// StartupKind classifies why startup stopped (StartupError.Kind), so a caller can tell a
// configuration fault from an extension that failed without parsing messages.
type StartupKind string

const (
	// StartupOwnerConflict: two enabled extensions declare [session] owner = true.
	StartupOwnerConflict StartupKind = "owner_conflict"
	// StartupRequiredMissing: a required extension was not discovered.
	StartupRequiredMissing StartupKind = "required_missing"
	// StartupRequiredDisabled: a required extension is discovered but not enabled.
	StartupRequiredDisabled StartupKind = "required_disabled"
	// StartupRequiredUntrusted: a required extension is enabled but not trusted.
	StartupRequiredUntrusted StartupKind = "required_untrusted"
	// StartupRequiredFailed: a required extension did not become ready.
	StartupRequiredFailed StartupKind = "required_failed"
)

// OwnerConflictError refuses a second extension that declares session ownership; only one
// enabled extension may own session policy (seed 000), and both are named so the operator
// can disable the one they did not mean.
type OwnerConflictError struct {
	First, Second string // sorted by name, so the message is the same whatever the order
}

func (e *OwnerConflictError) Error() string {
	return fmt.Sprintf("extensions %s and %s both declare [session] owner = true; only one enabled extension may own the session", e.First, e.Second)
}

// sessionOwner returns the one entry that declares [session] owner = true, or an
// *OwnerConflictError naming the first two when more do.
func sessionOwner(entries []*discovery.Entry) (string, error) {
	var owners []string
	for _, e := range entries {
		if e.Manifest != nil && e.Manifest.Session.Owner {
			owners = append(owners, e.Name)
		}
	}
	sort.Strings(owners)
	switch len(owners) {
	case 0:
		return "", nil
	case 1:
		return owners[0], nil
	}
	return "", &OwnerConflictError{First: owners[0], Second: owners[1]}
}

// Owner is the name of the extension that owns session policy, or "" when none does.
func (h *Host) Owner() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.owner
}

// rollback stops the extensions a failed startup had already activated, one at a time in
// the reverse order they became ready (the owner's dependants go before what they may
// depend on), then shuts down whatever is left.
func (h *Host) rollback(activated []*Extension) {
	for i := len(activated) - 1; i >= 0; i-- {
		activated[i].Stop("host_exit") // the host is not going to run: it exits
	}
	h.Shutdown()
}
