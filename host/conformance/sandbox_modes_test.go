package conformance_test

import (
	"fmt"
	"os"
)

// The raw fixture's sandbox modes (testdata/rawfixture/sandbox_probe.go), kept beside the
// capabilities every mode's manifest declares so the shared tables stay small.
func init() {
	brokenFor["sandbox.read_denied"] = "sandbox-declares-root"
	brokenFor["sandbox.write_denied"] = "sandbox-declares-tmp"
	brokenFor["sandbox.declared_allowed"] = "sandbox-probe-inert"
	// A fixture that says it was denied while it runs unconfined: the checks must look for
	// the evidence themselves.
	for _, c := range []string{"sandbox.connect_denied", "sandbox.process_budget", "sandbox.memory_budget", "sandbox.orphans_die"} {
		brokenFor[c] = noSandbox + " sandbox-probe-lies"
	}
}

// capabilityLines is what the raw fixture's manifest declares beyond its secret: budgets
// the sandbox checks prove, and what the declaring modes ask for.
func capabilityLines(mode string) string {
	lines := "[capabilities.budgets]\nprocesses = 64\nmemory_mb = 256\n"
	switch mode {
	case "sandbox-declares-root":
		lines = `read = ["/"]` + "\n" + lines
	case "sandbox-declares-tmp":
		lines = fmt.Sprintf("write = [%q]\n", os.TempDir()) + lines
	}
	return lines
}
