package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// TestClassify: each way a handshake fails gets its class; a write to a server that
// already exited is not a spawn failure although it is an *os.PathError too.
func TestClassify(t *testing.T) {
	ctx := context.Background()
	expired, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want string
	}{
		{ctx, &exec.Error{Name: "nope", Err: exec.ErrNotFound}, "spawn_failed"},
		{ctx, &os.PathError{Op: "fork/exec", Path: "/x", Err: syscall.ENOENT}, "spawn_failed"},
		{ctx, fmt.Errorf(`calling "initialize": %w`, &os.PathError{Op: "write", Path: "|1", Err: syscall.EPIPE}), "exited_during_handshake"},
		{ctx, fmt.Errorf("calling \"initialize\": %w", io.EOF), "exited_during_handshake"},
		{ctx, context.DeadlineExceeded, "handshake_timeout"},
		{expired, errors.New("anything"), "handshake_timeout"},
		{ctx, errors.New(`unsupported protocol version: "1999-01-01"`), "protocol_version"},
		{ctx, errors.New("dial tcp 127.0.0.1:9: connect: connection refused"), "unreachable"},
		{ctx, errors.New("invalid character 'h' looking for beginning of value"), "handshake_failed"},
	} {
		if got := classify(c.ctx, c.err); got != c.want {
			t.Errorf("classify(%v) = %s, want %s", c.err, got, c.want)
		}
	}
}
