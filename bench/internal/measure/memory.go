package measure

import (
	"context"
	"fmt"

	"github.com/octet-kit/octet/bench/internal/target"
)

// MemoryRun is the resident set of one extension process at three points: initialised
// and idle, after warm-up calls (runtimes grow their heaps and JIT caches on the first
// calls), and after calls more sequential echo calls. Growth is after − warm: what the
// calls kept, not what the first calls paid for once.
type MemoryRun struct {
	IdleKiB  int64 `json:"idle_kib"`
	WarmKiB  int64 `json:"warm_kib"`
	AfterKiB int64 `json:"after_kib"`
	Calls    int   `json:"calls"`
}

// Memory reads s's process RSS idle, after warmup calls and after calls more.
func Memory(ctx context.Context, s target.Session, warmup, calls int) (MemoryRun, error) {
	run := MemoryRun{Calls: calls, IdleKiB: rssKiB(s.PID())}
	if run.IdleKiB == 0 {
		return run, fmt.Errorf("no RSS for pid %d", s.PID())
	}
	for i := 0; i < warmup; i++ {
		if err := s.Echo(ctx); err != nil {
			return run, fmt.Errorf("warm-up call %d: %w", i+1, err)
		}
	}
	run.WarmKiB = rssKiB(s.PID())
	for i := 0; i < calls; i++ {
		if err := s.Echo(ctx); err != nil {
			return run, fmt.Errorf("call %d: %w", i+1, err)
		}
	}
	run.AfterKiB = rssKiB(s.PID())
	return run, nil
}
