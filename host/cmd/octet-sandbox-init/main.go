// Command octet-sandbox-init is the sandbox's init on its own: the host starts it, instead
// of re-executing its own larger binary, when it lies beside the host's executable. It links
// host/sandbox/sandboxinit alone, so it starts in a fraction of the time (docs/sandbox.md#start-cost).
package main

import (
	"fmt"
	"os"

	_ "github.com/octet-kit/octet/host/sandbox/sandboxinit" // its init() runs the sandbox init
)

func main() {
	// Reached only when not started as the init (host/sandbox's init() exits otherwise).
	fmt.Fprintln(os.Stderr, "octet-sandbox-init: started by the octet host to confine an extension; not a command to run")
	os.Exit(2)
}
