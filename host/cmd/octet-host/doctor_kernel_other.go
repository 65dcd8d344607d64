//go:build !linux

package main

import "runtime"

// kernelFindings: the sandbox's kernel features (Landlock, user namespaces, seccomp) are
// Linux's; elsewhere extensions run unconfined.
func kernelFindings() []finding {
	return []finding{{Check: "kernel", Severity: "warning", Subject: runtime.GOOS, Message: "the sandbox needs Linux (Landlock, user namespaces, seccomp); extensions run unconfined here", Fix: "run octet-host on Linux to confine extensions"}}
}
