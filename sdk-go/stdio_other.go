//go:build !unix

package octet

import (
	"errors"
	"io"
)

// protectStdio is not available outside Unix: the protocol stays on stdin/stdout,
// so extension code must not write to os.Stdout (use Log, or os.Stderr) and child
// processes must be started with their stdout redirected.
func protectStdio() (io.ReadCloser, io.WriteCloser, error) {
	return nil, nil, errors.New("fd protection is implemented for Unix only")
}
