package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Cancellation, progress and nested-call checks.

func init() {
	register(
		&Check{
			Name:        "cancel.reaches_handler",
			Description: "$/cancelRequest for a running slow call reaches its handler, which answers -32800 at once",
			Requirement: "wire.md §1 $/cancelRequest; docs/conformance.md#the-checks (transport compatibility): prompt cancellation that reaches the extension's handler",
			Tier:        Conditional,
			Tools:       []string{"slow", "echo"},
			Features:    []protocol.Feature{protocol.FeatureRequestCancellation},
			Covers: []string{
				protocol.MethodCancelRequest,
				reqCancellable(protocol.MethodToolCall), reqError(protocol.MethodToolCall, protocol.CodeRequestCancelled),
			},
			Run: checkCancelReaches,
		},
		&Check{
			Name:        "cancel.race_one_answer",
			Description: "a cancel racing a finishing call, or arriving after its result, still yields exactly one answer (the result when it already won)",
			Requirement: "wire.md §1 $/cancelRequest: unless a result already won; unknown/finished ids are ignored",
			Tier:        Conditional,
			Tools:       []string{"slow", "echo"},
			Features:    []protocol.Feature{protocol.FeatureRequestCancellation},
			Covers:      []string{protocol.MethodCancelRequest, reqCancellable(protocol.MethodToolCall)},
			Run:         checkCancelRace,
		},
		&Check{
			Name:        "progress.sequence",
			Description: "progress_n emits n status events for its request, sequence 1..n strictly increasing, all before the result",
			Requirement: "wire.md §6 $/progress, §10 progress sequences start at 1 and increase by 1",
			Tier:        Conditional,
			Tools:       []string{"progress_n"},
			Features:    []protocol.Feature{protocol.FeatureRequestProgress},
			Covers:      []string{protocol.MethodProgress, reqProgress(protocol.MethodToolCall), reqProgress(protocol.MethodCommandExecute)},
			Run:         checkProgress,
		},
		&Check{
			Name:        "callback.nested_1000",
			Description: "1,000 sequential extension-to-host kv.get calls made while serving one host request all complete",
			Requirement: "docs/conformance.md#the-checks (transport compatibility): 1,000 nested extension-to-host callbacks while serving one host request",
			Tier:        Conditional,
			Tools:       []string{"callback_n"},
			Features:    []protocol.Feature{protocol.FeatureKV},
			Covers:      []string{protocol.MethodKVGet},
			Run:         checkCallbacks,
		},
	)
}

func checkCancelReaches(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	id, ch, err := s.Send(protocol.MethodToolCall, map[string]any{"name": "slow", "arguments": map[string]any{"ms": 60000}})
	if err != nil {
		return err
	}
	// An echo answered after the slow call was sent shows the slow call was admitted
	// and its handler is running, so the cancel has to reach a live handler.
	if resp, err := t.toolCall(s, "echo", map[string]any{"value": "alive"}); err != nil {
		return err
	} else if err := expectEcho(resp, "alive"); err != nil {
		return err
	}
	sent := time.Now()
	if err := s.Cancel(id); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(t.Ctx, t.Timeout())
	defer cancel()
	resp, err := s.Wait(ctx, id, ch)
	if err != nil {
		return fail(fmt.Sprintf("-32800 within %s of $/cancelRequest (slow was asked to sleep 60 s)", t.Timeout()), "%v", err)
	}
	if err := expectCode(resp, -32800, "request cancelled"); err != nil {
		return err
	}
	t.Note("cancelled in %s", time.Since(sent).Round(time.Microsecond))
	return nil
}

func checkCancelRace(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	results, cancels := 0, 0
	// Racing: cancel immediately after a very short sleep is sent.
	for i := range 40 {
		id, ch, err := s.Send(protocol.MethodToolCall, map[string]any{"name": "slow", "arguments": map[string]any{"ms": i % 3}})
		if err != nil {
			return err
		}
		if err := s.Cancel(id); err != nil {
			return err
		}
		resp, err := t.wait(s, id, ch)
		if err != nil {
			return err
		}
		switch {
		case resp.Error != nil && resp.Error.Code == -32800:
			cancels++
		default:
			if _, err := expectText(resp, "slept"); err != nil {
				return fail("either the result \"slept\" or -32800", "request %d answered %s", id, resp)
			}
			results++
		}
	}
	// Lost: the result already won, then the cancel arrives; it must be ignored.
	for range 10 {
		id, ch, err := s.Send(protocol.MethodToolCall, map[string]any{"name": "echo", "arguments": map[string]any{"value": "won"}})
		if err != nil {
			return err
		}
		resp, err := t.wait(s, id, ch)
		if err != nil {
			return err
		}
		if err := expectEcho(resp, "won"); err != nil {
			return err
		}
		if err := s.Cancel(id); err != nil {
			return err
		}
	}
	// A round trip after the last cancel: any second answer written for a finished
	// request precedes it on the single writer and shows as a violation.
	resp, err := t.toolCall(s, "echo", map[string]any{"value": "after"})
	if err != nil {
		return err
	}
	if err := expectEcho(resp, "after"); err != nil {
		return err
	}
	t.Note("race: %d results, %d cancelled; 10 late cancels ignored", results, cancels)
	return nil
}

type progressParams struct {
	Parent   json.RawMessage `json:"parent_request_id"`
	Sequence int64           `json:"sequence"`
	Event    struct {
		Type    string  `json:"type"`
		Message string  `json:"message"`
		Current float64 `json:"current"`
		Total   float64 `json:"total"`
	} `json:"event"`
}

func checkProgress(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if !r.HasFeature(protocol.FeatureRequestProgress) {
		return skip("request_progress was not negotiated")
	}
	const n = 25
	id, ch, err := s.Send(protocol.MethodToolCall, map[string]any{"name": "progress_n", "arguments": map[string]any{"n": n}})
	if err != nil {
		return err
	}
	resp, err := t.wait(s, id, ch)
	if err != nil {
		return err
	}
	if _, err := expectText(resp, "done"); err != nil {
		return err
	}
	var seqs []int64
	for _, note := range s.Notifications(protocol.MethodProgress) {
		var p progressParams
		if err := json.Unmarshal(note.Params, &p); err != nil {
			return fail("$/progress params {parent_request_id, sequence, event}", "%s", excerpt(note.Params, 160))
		}
		if string(p.Parent) != fmt.Sprint(id) {
			continue
		}
		i := len(seqs) + 1
		seqs = append(seqs, p.Sequence)
		if p.Sequence != int64(i) {
			return fail(fmt.Sprintf("progress event %d with sequence %d (sequences start at 1 and increase by 1)", i, i), "sequence %d after %v", p.Sequence, seqs[:i-1])
		}
		if p.Event.Type != "status" || p.Event.Message != fmt.Sprintf("step %d", i) || p.Event.Current != float64(i) || p.Event.Total != n {
			return fail(fmt.Sprintf(`event {"type":"status","message":"step %d","current":%d,"total":%d}`, i, i, n), "%s", excerpt(note.Params, 200))
		}
	}
	if len(seqs) != n {
		return fail(fmt.Sprintf("%d progress events for request %d before its result", n, id), "%d", len(seqs))
	}
	if t.Ext.IsFixture() {
		// A command reports progress the same way: slow_cmd emits one "waiting" event.
		id, ch, err := s.Send(protocol.MethodCommandExecute, map[string]any{"name": "slow_cmd", "arguments": []string{"1"}})
		if err != nil {
			return err
		}
		if _, err := t.wait(s, id, ch); err != nil {
			return err
		}
		var got []string
		for _, note := range s.Notifications(protocol.MethodProgress) {
			var p progressParams
			if json.Unmarshal(note.Params, &p) == nil && string(p.Parent) == fmt.Sprint(id) {
				got = append(got, fmt.Sprintf("%d %s %s", p.Sequence, p.Event.Type, p.Event.Message))
			}
		}
		if len(got) != 1 || got[0] != "1 status waiting" {
			return fail(fmt.Sprintf(`one progress event for command request %d: sequence 1, status "waiting"`, id), "%v", got)
		}
	}
	t.Note("%d events in order; the command's one", n)
	return nil
}

func checkCallbacks(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if !r.HasFeature(protocol.FeatureKV) {
		return skip("kv was not negotiated")
	}
	const n = 1000
	start := time.Now()
	resp, err := s.Call(t.Ctx, 3*t.Timeout(), protocol.MethodToolCall, map[string]any{"name": "callback_n", "arguments": map[string]any{"n": n}})
	if err != nil {
		return fail(fmt.Sprintf("callback_n to finish %d nested kv.get calls", n), "%v after %d kv.get calls", err, len(s.services.Calls(protocol.MethodKVGet)))
	}
	if resp.Error != nil {
		return fail("a result", "%s", resp.Error)
	}
	var tr toolResult
	_ = json.Unmarshal(resp.Result, &tr)
	if !jsonEqual(tr.StructuredContent, []byte(fmt.Sprintf(`{"calls":%d}`, n))) {
		return fail(fmt.Sprintf(`structured_content {"calls":%d}`, n), "%s", excerpt(resp.Result, 200))
	}
	if got := len(s.services.Calls(protocol.MethodKVGet)); got != n {
		return fail(fmt.Sprintf("%d kv.get requests at the host", n), "%d", got)
	}
	t.Note("%d nested calls in %s", n, time.Since(start).Round(time.Millisecond))
	return nil
}
