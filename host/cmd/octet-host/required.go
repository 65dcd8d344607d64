package main

import (
	"fmt"
	"github.com/octet-kit/octet/host/internal/suggest"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/admission"
)

// requiredNames is every extension this run requires: the config's required_extensions
// (the user's and a trusted workspace's) and --require, each once, in that order.
func requiredNames(sel *selection, flags []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range append(append([]string{}, sel.config.RequiredExtensions...), flags...) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// checkRequired classifies a required extension that admission kept from starting
// (missing, invalid, disabled, untrusted, safe mode) before any process starts, so the
// operator reads what to change rather than a generic "not admitted".
func checkRequired(sel *selection, required []string) error {
	for _, name := range required {
		var found bool
		for _, e := range sel.result.Entries {
			if e.Name != name {
				continue
			}
			found = true
			d := sel.policy.Admit(e)
			switch d.State {
			case admission.Admitted:
			case admission.Disabled:
				return &host.StartupError{Kind: host.StartupRequiredDisabled, Required: name, Err: fmt.Errorf("%s", d.Reason)}
			case admission.Untrusted, admission.SafeMode:
				return &host.StartupError{Kind: host.StartupRequiredUntrusted, Required: name, Err: fmt.Errorf("%s", d.Reason)}
			default:
				return &host.StartupError{Kind: host.StartupRequiredFailed, Required: name, Err: fmt.Errorf("%s: %s", d.State, d.Reason)}
			}
		}
		if !found {
			names := make([]string, 0, len(sel.result.Entries))
			for _, e := range sel.result.Entries {
				names = append(names, e.Name)
			}
			return &host.StartupError{Kind: host.StartupRequiredMissing, Required: name, Err: fmt.Errorf("no extension named %s was discovered%s", name, suggest.Hint(name, names, nil))}
		}
	}
	return nil
}
