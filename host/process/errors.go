package process

import (
	"fmt"
	"strings"
)

// Kind classifies why an extension could not be started or handshaken.
type Kind string

// The start failure kinds. They are stable: the CLI prints them and tests match on them.
const (
	KindNotFound      Kind = "command_not_found"
	KindNotExecutable Kind = "not_executable"
	KindSpawn         Kind = "spawn_failed"
	KindExited        Kind = "exited_before_handshake"
	KindNonFrame      Kind = "non_frame_output"
	KindTimeout       Kind = "start_timeout"
	KindRefused       Kind = "handshake_refused"
	KindSandbox       Kind = "sandbox_unavailable"
)

// StartError says why an extension did not become ready.
type StartError struct {
	Kind    Kind
	Message string
	// Stderr holds the last lines the process wrote to stderr, for diagnosis.
	Stderr []string
	// Log is the file holding all of it ("" when stderr was not logged).
	Log string
}

func (e *StartError) Error() string {
	msg := fmt.Sprintf("%s: %s", e.Kind, e.Message)
	if len(e.Stderr) > 0 {
		msg += "; last stderr lines:\n  " + strings.Join(Readable(e.Stderr), "\n  ")
	}
	if e.Log != "" {
		msg += "\n  (full log: " + e.Log + ")"
	}
	return msg
}
