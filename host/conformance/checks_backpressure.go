package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"time"

	"github.com/octet-kit/octet/host/faultx"
)

// Back-pressure: the host stops reading while handlers write as fast as they can. A
// writer whose queue is bounded makes them wait once the pipe is full; one that queues
// without bound keeps every frame in memory. Several handlers emit at once: with one,
// a writer can look bounded only because its one sender is the one blocked in
// write(2) while nobody queues behind it. Then, on a fresh process, the host reads
// slowly and every frame must arrive, once, in order.
const (
	backpressureCalls  = 4                      // concurrent progress_n calls
	backpressureOwed   = 100_000                // progress events each while the host does not read (about 64 MiB in all)
	backpressureWindow = 750 * time.Millisecond // CPU the extension may spend while the host does not read
	backpressureStall  = 500 * time.Millisecond // no CPU and no growth this long: the writers wait
	backpressureWall   = 20 * time.Second       // the window's bound in wall time, on a machine that starves the extension
	backpressureGrowth = 16 << 20               // resident growth allowed meanwhile (pipe, runtime and allocator noise)
	backpressureRead   = 2_500                  // progress events each read back slowly
)

func checkBackpressure(t *T) error {
	seed := t.faultSeed("stdout.backpressure")
	grew, measured, err := backpressureMemory(t, seed)
	if err != nil {
		return err
	}
	if measured {
		t.Note("resident growth %.1f MiB while not reading", float64(grew)/(1<<20))
	} else {
		t.Note("resident memory not measured on this system")
	}
	return backpressureOrder(t, seed)
}

// backpressureMemory owes the host far more than any pipe holds and measures the
// extension's resident growth while the host does not read; then the host hangs up.
func backpressureMemory(t *T, seed uint64) (grew uint64, measured bool, err error) {
	var base usage
	s, _, _, err := startEmitters(t, seed, backpressureOwed, func(s *Session) { base, measured = groupUsage(s.group(t)) })
	if err != nil {
		return 0, false, err
	}
	defer func() {
		// The backlog is never read: end the stream at a frame boundary, end the process.
		s.faults.r.HangUp()
		s.Kill(0)
	}()
	if !measured {
		return 0, false, nil
	}
	peak, spent := observePeakRSS(s.group(t), base)
	if grew := peak - base.RSS; grew > backpressureGrowth {
		return grew, true, fail(fmt.Sprintf("resident memory to grow by at most %d MiB while the host does not read (a bounded writer makes the handlers wait)", backpressureGrowth>>20),
			"grew by %.1f MiB within %s of its CPU while %d×%d progress events (about %d MiB) were owed", float64(grew)/(1<<20), spent.Round(10*time.Millisecond),
			backpressureCalls, backpressureOwed, backpressureCalls*backpressureOwed*160>>20)
	}
	return peak - base.RSS, true, nil
}

// backpressureOrder stops reading until the pipe is surely full, then reads slowly:
// every progress event of every call arrives once, in order, before its result.
func backpressureOrder(t *T, seed uint64) error {
	s, ids, chans, err := startEmitters(t, seed, backpressureRead, nil)
	if err != nil {
		return err
	}
	defer s.ResumeReading()
	// Held back long enough for the writers to meet a full pipe (a measurement window:
	// the order must hold whenever the reading resumes).
	held := time.NewTimer(200 * time.Millisecond)
	<-held.C
	s.ResumeReading()
	start := time.Now()
	ctx, cancel := context.WithTimeout(t.Ctx, 30*time.Second)
	defer cancel()
	for i, id := range ids {
		resp, err := s.Wait(ctx, id, chans[i])
		if err != nil {
			return err
		}
		if _, err := expectText(resp, "done"); err != nil {
			return err
		}
		// Notifications are recorded as they are read, so the ones before the result
		// are all here now.
		if err := expectSequence(s, id, backpressureRead); err != nil {
			return err
		}
	}
	resp, err := t.toolCall(s, "echo", map[string]any{"value": "after back-pressure"})
	if err == nil {
		err = expectEcho(resp, "after back-pressure")
	}
	if err != nil {
		return fmt.Errorf("after the back-pressure the connection should still work: %w", err)
	}
	read, _ := s.ReadCounts()
	t.Note("then %d×%d events (%d bytes) read slowly in %s, in order", backpressureCalls, backpressureRead, read, time.Since(start).Round(time.Millisecond))
	return nil
}

// startEmitters opens a session under the slow reader, stops reading, runs before (when
// set) and starts backpressureCalls progress_n calls of n events each.
func startEmitters(t *T, seed uint64, n int, before func(*Session)) (*Session, []int64, []<-chan Response, error) {
	s, r, err := t.openFaulty(InitOptions{}, Faults{Read: faultx.ReadPlan{Seed: seed, MaxRead: 4096}})
	if err != nil {
		return nil, nil, nil, err
	}
	if !r.HasFeature(protocol.FeatureRequestProgress) {
		return nil, nil, nil, skip("request_progress was not negotiated")
	}
	if limit := r.Protocol.Limits.MaxConcurrentRequests; limit < backpressureCalls {
		return nil, nil, nil, skip("negotiated concurrency %d is below the %d concurrent calls the check needs", limit, backpressureCalls)
	}
	s.StopReading()
	if before != nil {
		before(s)
	}
	ids := make([]int64, backpressureCalls)
	chans := make([]<-chan Response, backpressureCalls)
	for i := range ids {
		ids[i], chans[i], err = s.Send(protocol.MethodToolCall, map[string]any{"name": "progress_n", "arguments": map[string]any{"n": n}})
		if err != nil {
			s.ResumeReading()
			return nil, nil, nil, err
		}
	}
	return s, ids, chans, nil
}

// observePeakRSS samples the group's resident memory through the window (a
// measurement, not a wait for an event) and returns the peak and the CPU the group spent
// meanwhile. The window is measured in the extension's CPU time, not wall time: on a
// loaded machine an unbounded writer gets few time slices, and a wall-clock window would
// end before it had written enough to show. It ends early once the growth is over the
// bound, or once the group has neither run nor grown for backpressureStall (its
// writers wait on the full pipe, which is the behaviour asked for).
func observePeakRSS(pgid int, base usage) (peak uint64, spent time.Duration) {
	peak, last := base.RSS, base
	stalled := time.Duration(0)
	const every = 50 * time.Millisecond
	tick := time.NewTicker(every)
	defer tick.Stop()
	wall := time.NewTimer(backpressureWall)
	defer wall.Stop()
	for peak-base.RSS <= backpressureGrowth && spent < backpressureWindow && stalled < backpressureStall {
		select {
		case <-tick.C:
			u, ok := groupUsage(pgid)
			if !ok {
				continue
			}
			if u.CPU > last.CPU || u.RSS > peak {
				stalled = 0
			} else {
				stalled += every
			}
			peak, last, spent = max(peak, u.RSS), u, u.CPU-base.CPU
		case <-wall.C:
			return peak, spent
		}
	}
	return peak, spent
}

// expectSequence checks that request id's progress events so far are exactly 1..n.
func expectSequence(s *Session, id int64, n int) error {
	next := int64(1)
	for _, note := range s.Notifications(protocol.MethodProgress) {
		var p progressParams
		if json.Unmarshal(note.Params, &p) != nil || string(p.Parent) != fmt.Sprint(id) {
			continue
		}
		if p.Sequence != next {
			return fail(fmt.Sprintf("progress event %d of request %d with sequence %d: none dropped, repeated or reordered under back-pressure", next, id, next), "sequence %d", p.Sequence)
		}
		next++
	}
	if got := next - 1; got != int64(n) {
		return fail(fmt.Sprintf("all %d progress events of request %d before its result", n, id), "%d", got)
	}
	return nil
}
