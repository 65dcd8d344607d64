package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/octet-kit/octet/host/faultx"
)

// Back-pressure: the host stops reading while a handler writes as fast as it can. A
// writer whose queue is bounded makes the handler wait once the pipe is full; one that
// queues without bound keeps every frame in memory. Then the host reads slowly and
// every frame must arrive, once, in order.
const (
	backpressureEvents = 40_000      // progress events owed: about 6 MiB of frames
	backpressureWindow = time.Second // how long the host does not read
	backpressureGrowth = 4 << 20     // resident growth allowed meanwhile (pipe and allocator noise)
)

func checkBackpressure(t *T) error {
	seed := t.faultSeed("stdout.backpressure")
	t.Note("fault seed %d", seed)
	s, r, err := t.openFaulty(InitOptions{}, Faults{Read: faultx.ReadPlan{Seed: seed, MaxRead: 4096}})
	if err != nil {
		return err
	}
	if !r.HasFeature("request_progress") {
		return skip("request_progress was not negotiated")
	}
	s.StopReading()
	defer s.ResumeReading()
	base, measured := groupRSS(s.proc.Pid())
	id, ch, err := s.Send("tool/call", map[string]any{"name": "progress_n", "arguments": map[string]any{"n": backpressureEvents}})
	if err != nil {
		return err
	}
	// Observe for the window (a measurement, not a wait for an event): the resident
	// memory of the extension's process group while nothing it writes is read.
	peak := base
	if measured {
		tick := time.NewTicker(50 * time.Millisecond)
		end := time.NewTimer(backpressureWindow)
	observe:
		for {
			select {
			case <-tick.C:
				if rss, ok := groupRSS(s.proc.Pid()); ok && rss > peak {
					peak = rss
				}
				if peak-base > backpressureGrowth {
					break observe
				}
			case <-end.C:
				break observe
			}
		}
		tick.Stop()
		end.Stop()
		if grew := peak - base; grew > backpressureGrowth {
			return fail(fmt.Sprintf("resident memory to grow by at most %d MiB while the host does not read (a bounded writer blocks the handler)", backpressureGrowth>>20),
				"grew by %.1f MiB while %d progress events (about %d MiB) were owed", float64(grew)/(1<<20), backpressureEvents, backpressureEvents*150>>20)
		}
	} else {
		t.Note("resident memory not measured on this system")
	}
	s.ResumeReading()
	start := time.Now()
	ctx, cancel := context.WithTimeout(t.Ctx, 30*time.Second)
	defer cancel()
	resp, err := s.Wait(ctx, id, ch)
	if err != nil {
		return err
	}
	if _, err := expectText(resp, "done"); err != nil {
		return err
	}
	next := int64(1)
	for _, note := range s.Notifications("$/progress") {
		var p progressParams
		if json.Unmarshal(note.Params, &p) != nil || string(p.Parent) != fmt.Sprint(id) {
			continue
		}
		if p.Sequence != next {
			return fail(fmt.Sprintf("progress event %d (sequence %d): none dropped, repeated or reordered under back-pressure", next, next), "sequence %d", p.Sequence)
		}
		next++
	}
	if got := next - 1; got != backpressureEvents {
		return fail(fmt.Sprintf("all %d progress events before the result", backpressureEvents), "%d", got)
	}
	resp, err = t.toolCall(s, "echo", map[string]any{"value": "after back-pressure"})
	if err == nil {
		err = expectEcho(resp, "after back-pressure")
	}
	if err != nil {
		return fmt.Errorf("after the back-pressure the connection should still work: %w", err)
	}
	read, _ := s.ReadCounts()
	t.Note("resident growth %.1f MiB while not reading; then %d events (%d bytes read) in %s", float64(peak-base)/(1<<20), backpressureEvents, read, time.Since(start).Round(time.Millisecond))
	return nil
}
