package measure

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/octet-kit/octet/bench/internal/target"
)

// ColdStart times start (a target's Start or Direct): process spawn to initialised and
// ready for calls. The session is closed afterwards, untimed.
func ColdStart(ctx context.Context, start func(context.Context) (target.Session, error)) (time.Duration, error) {
	t0 := time.Now()
	s, err := start(ctx)
	took := time.Since(t0)
	if err != nil {
		return 0, err
	}
	// One call proves the session is really usable; it is not part of the time.
	if err := s.Echo(ctx); err != nil {
		s.Close()
		return 0, fmt.Errorf("first call after start: %w", err)
	}
	// A peer killed after its grace period reports "signal: terminated" on Close;
	// that says nothing about its start.
	_ = s.Close()
	return took, nil
}

// BareStart times running argv to its exit: the interpreter's or binary's own
// start cost, the baseline a cold start is compared with.
//
// env is the process's whole environment: the baseline the extensions get, so a
// variable set only in the caller's shell (NODE_EXTRA_CA_CERTS makes every Node start
// parse a CA bundle) weighs on neither side of the comparison.
func BareStart(argv, env []string) (time.Duration, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v: %w", argv, err)
	}
	return time.Since(start), nil
}
