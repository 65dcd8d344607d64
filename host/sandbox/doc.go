// Package sandbox confines an extension process with the kernel's own mechanisms, from the
// policy its manifest's [capabilities] declares (docs/sandbox.md).
//
// The host never confines itself. It starts its own binary again as the extension's init
// (the shape runc and bubblewrap use): process.Start asks Command for the init's command line,
// and this package's init function, which runs in every binary that links the host before
// main, recognises the re-execution by its environment variable and never returns. The init
// runs in new user, PID, IPC and mount namespaces (and a new network namespace when the
// manifest says network = false), mounts its own /proc, sets the budgets as rlimits, applies
// Landlock (filesystem and TCP) and a seccomp filter to its own thread, starts the entrypoint
// from that thread so the child inherits all of it, reports "ready" on a pipe, then stays PID
// 1 of the namespace: it reaps every orphan, forwards nothing (the host signals the whole
// group), and exits with the entrypoint. When it exits or is killed, the kernel kills every
// process left in the namespace, and it dies with the host (parent-death signal), so no
// process of the extension outlives the host.
package sandbox
