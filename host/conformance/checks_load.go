package conformance

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Throughput and flow-control checks (fixture tools echo and slow).

func init() {
	register(
		&Check{
			Name:        "echo.sequential",
			Description: "2,000 sequential echoes of varied JSON values come back equal",
			Requirement: "docs/conformance.md#the-checks (transport compatibility): 2,000 sequential echoes",
			Tier:        Conditional,
			Tools:       []string{"echo"},
			Covers:      []string{protocol.MethodToolCall},
			Run:         checkSequentialEcho,
		},
		&Check{
			Name:        "echo.concurrent",
			Description: "32 workers × 50 concurrent echoes, each response matched to its own request",
			Requirement: "docs/conformance.md#the-checks (transport compatibility): 32×50 concurrent echoes matched to their responses",
			Tier:        Conditional,
			Tools:       []string{"echo"},
			Covers:      []string{protocol.MethodToolCall},
			Run:         checkConcurrentEcho,
		},
		&Check{
			Name:        "overload.answered",
			Description: "a flood beyond the negotiated concurrency plus the admission queue is answered -32001 at once; the reader keeps answering and cancelling",
			Requirement: "wire.md §1 in flight / overloaded (-32001), §10 admission queue",
			Tier:        Conditional,
			Tools:       []string{"slow"},
			Features:    []protocol.Feature{protocol.FeatureRequestCancellation},
			Covers: []string{
				reqError(protocol.MethodToolCall, protocol.CodeOverloaded),
				protocol.MethodCancelRequest,
				reqError(protocol.MethodToolCall, protocol.CodeRequestCancelled),
				reqError(protocol.MethodCommandExecute, protocol.CodeOverloaded),
				reqError(protocol.MethodHookRun, protocol.CodeOverloaded),
				reqError(protocol.MethodContextCollect, protocol.CodeOverloaded),
				reqError(protocol.MethodStatusCollect, protocol.CodeOverloaded),
				reqError(protocol.MethodToolRender, protocol.CodeOverloaded),
			},
			Run: checkOverload,
		},
	)
}

// echoValue is the i-th value echoed: every JSON kind, nested and unicode included.
func echoValue(tag string, i int) any {
	switch i % 5 {
	case 0:
		return i
	case 1:
		return fmt.Sprintf("%s-%d ✓ \"quoted\"", tag, i)
	case 2:
		return map[string]any{"tag": tag, "i": i, "list": []any{true, nil, 1.5}}
	case 3:
		return []any{tag, i}
	}
	return i%2 == 0
}

// expectEcho checks resp echoes want in structured_content.value.
func expectEcho(resp Response, want any) error {
	r, err := expectText(resp, "echo")
	if err != nil {
		return err
	}
	var sc struct {
		Value json.RawMessage `json:"value"`
	}
	wantJSON := mustJSON(want)
	if json.Unmarshal(r.StructuredContent, &sc) != nil || !jsonEqual(sc.Value, wantJSON) {
		return fail(fmt.Sprintf("structured_content {\"value\": %s}", wantJSON), "%s", excerpt(r.StructuredContent, 200))
	}
	return nil
}

func checkSequentialEcho(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	start := time.Now()
	const n = 2000
	for i := range n {
		v := echoValue("seq", i)
		resp, err := t.toolCall(s, "echo", map[string]any{"value": v})
		if err != nil {
			return fmt.Errorf("echo %d of %d: %w", i+1, n, err)
		}
		if err := expectEcho(resp, v); err != nil {
			return fmt.Errorf("echo %d of %d: %w", i+1, n, err)
		}
	}
	t.Note("%d echoes in %s", n, time.Since(start).Round(time.Millisecond))
	return nil
}

func checkConcurrentEcho(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	const workers, each = 32, 50
	start := time.Now()
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				v := echoValue(fmt.Sprintf("w%d", w), i)
				resp, err := t.toolCall(s, "echo", map[string]any{"value": v})
				if err == nil {
					err = expectEcho(resp, v)
				}
				if err != nil {
					errs <- fmt.Errorf("worker %d, echo %d: %w", w, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	t.Note("%d×%d echoes in %s", workers, each, time.Since(start).Round(time.Millisecond))
	return nil
}

// floodExtra is how many requests the flood sends beyond concurrency + queue.
const floodExtra = 32

func checkOverload(t *T) error {
	s, r, err := t.Open(InitOptions{MaxConcurrent: 4, MaxPending: 8})
	if err != nil {
		return err
	}
	limit := r.Protocol.Limits.MaxConcurrentRequests
	// The SDKs' default admission queue is 64; an SDK that honours the offered
	// max_pending_requests (8) refuses even more, which is fine.
	n := limit + 64 + floodExtra
	type answer struct {
		id   int64
		resp Response
		err  error
	}
	answers := make(chan answer, n)
	ids := make([]int64, 0, n)
	for range n {
		id, ch, err := s.Send(protocol.MethodToolCall, map[string]any{"name": "slow", "arguments": map[string]any{"ms": 60000}})
		if err != nil {
			return err
		}
		ids = append(ids, id)
		go func() {
			resp, err := s.Wait(t.Ctx, id, ch)
			answers <- answer{id, resp, err}
		}()
	}
	// The refusals must come while every admitted call is still sleeping: a reader
	// that paused would not answer until the slow calls end (60 s).
	overloaded, answered := 0, map[int64]bool{}
	deadline := time.NewTimer(t.Timeout())
	defer deadline.Stop()
	for overloaded < floodExtra {
		select {
		case a := <-answers:
			if a.err != nil {
				return a.err
			}
			answered[a.id] = true
			if a.resp.Error == nil || a.resp.Error.Code != -32001 {
				return fail("-32001 overloaded for the requests beyond the limit, the rest still sleeping", "request %d answered %s", a.id, a.resp)
			}
			overloaded++
		case <-deadline.C:
			return fail(fmt.Sprintf("at least %d requests of %d answered -32001 within %s (negotiated concurrency %d)", floodExtra, n, t.Timeout(), limit),
				"%d overloaded answers", overloaded)
		}
	}
	// Every request method meets the same full queue (the fixture serves all of them).
	if t.Ext.IsFixture() {
		for _, c := range otherMethods {
			resp, err := s.Call(t.Ctx, t.Timeout(), c.method, c.params)
			if err != nil {
				return fmt.Errorf("%s while overloaded: %w", c.method, err)
			}
			if err := expectCode(resp, -32001, c.method+" while the queue is full"); err != nil {
				return err
			}
		}
	}
	// The reader still answers: cancel everything still sleeping; each answers -32800.
	for _, id := range ids {
		if !answered[id] {
			if err := s.Cancel(id); err != nil {
				return err
			}
		}
	}
	deadline.Reset(t.Timeout())
	cancelled := 0
	for len(answered) < n {
		select {
		case a := <-answers:
			if a.err != nil {
				return a.err
			}
			answered[a.id] = true
			switch {
			case a.resp.Error != nil && a.resp.Error.Code == -32001:
				overloaded++
			case a.resp.Error != nil && a.resp.Error.Code == -32800:
				cancelled++
			default:
				return fail("-32800 for a cancelled sleeping request", "request %d answered %s", a.id, a.resp)
			}
		case <-deadline.C:
			return fail(fmt.Sprintf("all %d requests answered after cancelling the sleeping ones", n), "%d answered", len(answered))
		}
	}
	t.Note("%d requests, concurrency %d: %d overloaded, %d cancelled", n, limit, overloaded, cancelled)
	return nil
}
