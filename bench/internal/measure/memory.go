package measure

import (
	"context"
	"fmt"

	"github.com/octet-kit/octet/bench/internal/target"
)

// MemoryRun is the resident set of one extension process at three points: initialised
// and idle, after calls sequential echo calls, and after calls more. Two windows because
// they answer different questions. The first (after − idle) is what a process grows to
// under use; in a garbage-collected runtime that is mostly the heap reaching its
// collector's target, which the floor of the same language pays too. The second
// (steady − after) is what the calls kept once the heap is at its working size: a leak
// of k bytes a call shows there as calls·k.
type MemoryRun struct {
	IdleKiB   int64 `json:"idle_kib"`
	AfterKiB  int64 `json:"after_kib"`
	SteadyKiB int64 `json:"steady_kib"`
	Calls     int   `json:"calls"`
}

// Memory reads s's process RSS idle, after calls echo calls and after calls more.
func Memory(ctx context.Context, s target.Session, calls int) (MemoryRun, error) {
	run := MemoryRun{Calls: calls, IdleKiB: rssKiB(s.PID())}
	if run.IdleKiB == 0 {
		return run, fmt.Errorf("no RSS for pid %d", s.PID())
	}
	for window, into := range []*int64{&run.AfterKiB, &run.SteadyKiB} {
		for i := 0; i < calls; i++ {
			if err := s.Echo(ctx); err != nil {
				return run, fmt.Errorf("call %d: %w", window*calls+i+1, err)
			}
		}
		*into = rssKiB(s.PID())
	}
	return run, nil
}
