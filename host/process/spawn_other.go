//go:build !linux

package process

import "os/exec"

// startCmd starts cmd. Without Pdeathsig, an extension learns of the host's death by EOF on
// stdin (the host's end closes when it dies); the SDKs exit on EOF, as the wire contract
// requires of every extension.
func startCmd(cmd *exec.Cmd) error { return cmd.Start() }
