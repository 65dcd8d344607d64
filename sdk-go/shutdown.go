package octet

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// answerGrace is how long cancelled handlers and on_shutdown functions get when the
// drain has used the whole budget: enough to answer -32800 or release a resource,
// never long enough for a stuck function to matter.
const answerGrace = 250 * time.Millisecond

// shutdownRequest stops admission, drains, runs on_shutdown, and acknowledges; the
// transport closes after writing the acknowledgement and the process exits.
func (e *Extension) shutdownRequest(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Reason     string `json:"reason"`
		DeadlineMS *int64 `json:"deadline_ms"`
	}
	if s := e.session.Load(); s != nil {
		if err := e.routes[req.Method].CheckParams(s.apiVersion, req.Params); err != nil {
			return nil, invalidParams("", "%s params: %v", req.Method, err)
		}
	}
	if req.Params != nil {
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, invalidParams("", "shutdown params: %v", err)
		}
	}
	budget := e.opts.ShutdownDrain
	if p.DeadlineMS != nil && *p.DeadlineMS >= 0 && time.Duration(*p.DeadlineMS)*time.Millisecond < budget {
		budget = time.Duration(*p.DeadlineMS) * time.Millisecond
	}
	e.log.Info("shutdown requested", "reason", p.Reason, "budget_ms", budget.Milliseconds())
	// The requests read before this one are admitted (and so drained), not refused.
	budget = e.admitThrough(req.Seq-min(req.Seq, 1), budget)
	e.finish(budget, 1) // 1: this shutdown request is still being served
	return jsonrpc.ReplyThenClose(struct{}{}), nil
}

// admitThrough waits, within budget, until the admission of every request read up to
// seq is decided (see arrivals), and returns what is left of budget.
func (e *Extension) admitThrough(seq uint64, budget time.Duration) time.Duration {
	if seq == 0 {
		return budget
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	e.arrivals.waitThrough(ctx, seq)
	cancel()
	return max(budget-time.Since(start), 0)
}

// finish is the bounded end of a session, shared by shutdown and stdin EOF: stop
// admission, let in-flight work finish until the deadline, cancel the rest (they
// answer -32800), then run on_shutdown functions bounded by what remains. It runs
// once; a second caller waits for the first.
func (e *Extension) finish(budget time.Duration, serving int) {
	e.shutdownRun.Do(func() {
		defer close(e.stopped)
		e.shutting.Store(true)
		deadline := time.Now().Add(budget)
		if e.pool != nil {
			ctx, cancel := context.WithDeadline(context.Background(), deadline)
			drained := e.pool.wait(ctx)
			cancel()
			if !drained {
				e.log.Warn("drain deadline reached; cancelling the remaining requests")
				e.pool.cancelAll()
				ctx, cancel := context.WithTimeout(context.Background(), answerGrace)
				e.pool.wait(ctx)
				cancel()
			}
			// Let the answers reach the writer before the acknowledgement.
			ctx, cancel = context.WithTimeout(context.Background(), answerGrace)
			_ = e.conn.WaitServing(ctx, serving)
			cancel()
		}
		e.runShutdownFns(deadline)
	})
}

// runShutdownFns runs the on_shutdown functions until they return or the deadline
// (at least answerGrace) passes; a stuck one is abandoned.
func (e *Extension) runShutdownFns(deadline time.Time) {
	e.mu.Lock()
	fns := append([]func(context.Context){}, e.shutdowns...)
	e.mu.Unlock()
	if len(fns) == 0 {
		return
	}
	if until := time.Until(deadline); until < answerGrace {
		deadline = time.Now().Add(answerGrace)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, fn := range fns {
			func() {
				defer func() {
					if p := recover(); p != nil {
						e.log.Error("on_shutdown panicked", "panic", fmt.Sprint(p))
					}
				}()
				fn(ctx)
			}()
		}
	}()
	select {
	case <-done:
	case <-ctx.Done():
		e.log.Warn("on_shutdown did not return within the deadline; exiting without it")
	}
}
