package conformance

import (
	"errors"
	"fmt"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"time"

	"github.com/octet-kit/octet/host/conformance/argsgen"
)

// The checks that call the author's own tools (see exercise.go). They bind every
// extension: a tool is whatever the extension declares, called with arguments its own
// parameters schema allows or refuses.

func init() {
	const req = "docs/conformance.md#calling-your-tools; wire.md §4 tool results, §1 error registry"
	register(
		&Check{
			Name:        "tools.valid_arguments",
			Description: "every declared tool (and every tool of a published dynamic catalog) answers arguments generated from its parameters schema (each enum value, bounds, empty strings and arrays, optional members absent and present, [certify] examples) with a result the host passes on (wire schema, output_schema) or a tool error in the documented shape; never a crash, hang, -32603 or protocol error",
			Requirement: req,
			Tier:        Required,
			Covers:      []string{protocol.MethodToolCall},
			Run:         checkValidArguments,
		},
		&Check{
			Name:        "tools.invalid_arguments",
			Description: "arguments that break exactly one rule of a tool's parameters schema are refused -32602 with data.pointer naming the failing value as the host's validator does",
			Requirement: req + "; docs/conformance.md#validation-faults",
			Tier:        Required,
			Covers:      []string{"tool/call error -32602"},
			Run:         checkInvalidArguments,
		},
		&Check{
			Name:        "tools.cancel_mid_flight",
			Description: "a call of each tool cancelled right after it is sent ends exactly once, with -32800 or its result, and the extension keeps serving",
			Requirement: "wire.md §7 cancellation; " + req,
			Tier:        Required,
			Features:    []protocol.Feature{protocol.FeatureRequestCancellation},
			Covers:      []string{"tool/call cancellable", "tool/call error -32800"},
			Run:         checkCancelMidFlight,
		},
		&Check{
			Name:        "tools.concurrent_calls",
			Description: "as many calls of the declared tools as the negotiated max_concurrent_requests, sent at once, are all admitted and answered as valid calls (no -32001)",
			Requirement: "wire.md §8 limits (max_concurrent_requests); " + req,
			Tier:        Required,
			Features:    []protocol.Feature{protocol.FeatureRequestCancellation},
			Covers:      []string{"tool/call error -32001"},
			Run:         checkConcurrentCalls,
		},
		&Check{
			Name:        "tools.shutdown_drains",
			Description: "calls of the declared tools in flight when shutdown arrives are drained: each is answered (its result, a tool error, or -32800 at the deadline) before the shutdown is acknowledged and the process exits",
			Requirement: "wire.md §9 shutdown and drain; " + req,
			Tier:        Required,
			Covers:      []string{protocol.MethodShutdown},
			Run:         checkShutdownDrains,
		},
	)
}

// exerciseCases calls each tool with the cases pick selects, judging each answer; a
// transport failure or a hang ends that tool and the next tool gets a fresh process.
func (t *T) exerciseCases(pick func(*argsgen.Plan) []argsgen.Case, judge func(Response, exercised, argsgen.Case, string) string) error {
	s, init, plans, failures, err := t.liveTools(InitOptions{})
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, e := range plans {
		known[e.def.Name] = true
	}
	for _, tc := range t.tools {
		known[tc.Tool] = true
	}
	run := func(plans []exercised) error {
		for _, e := range plans {
			if s == nil {
				if s, init, err = t.Open(InitOptions{}); err != nil {
					return fmt.Errorf("reopening after a failed call: %w", err)
				}
			}
			for _, c := range pick(e.plan) {
				resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, callParams(e.def, c.Args))
				problem := ""
				switch {
				case errors.Is(err, ErrTransport):
					problem = err.Error()
				case err != nil:
					problem = fmt.Sprintf("no answer within %s (a hang): %v", t.Timeout(), err)
				default:
					problem = judge(resp, e, c, init.APIVersion)
				}
				if f := t.record(s, e, c, problem); f != "" {
					failures = append(failures, f)
					if err != nil {
						s = nil
					}
					break
				}
			}
		}
		return nil
	}
	if err := run(plans); err != nil {
		return err
	}
	// Tools the extension published while the others were called (a dynamic catalog).
	if s != nil {
		more, problems := t.planTools(declaredTools(s, init, known))
		failures = append(failures, problems...)
		if err := run(more); err != nil {
			return err
		}
	}
	return t.exerciseSummary("every generated call answered as its schema says", failures)
}

func checkValidArguments(t *T) error {
	return t.exerciseCases(func(p *argsgen.Plan) []argsgen.Case { return p.Valid },
		func(resp Response, e exercised, _ argsgen.Case, api string) string {
			return judgeValid(resp, e.def, api)
		})
}

func checkInvalidArguments(t *T) error {
	return t.exerciseCases(func(p *argsgen.Plan) []argsgen.Case { return p.Invalid },
		func(resp Response, _ exercised, c argsgen.Case, _ string) string { return judgeInvalid(resp, c) })
}

// probes are the first valid case of each planned tool.
func probes(plans []exercised) []struct {
	e exercised
	c argsgen.Case
} {
	var out []struct {
		e exercised
		c argsgen.Case
	}
	for _, e := range plans {
		if len(e.plan.Valid) > 0 {
			out = append(out, struct {
				e exercised
				c argsgen.Case
			}{e, e.plan.Valid[0]})
		}
	}
	return out
}

func checkCancelMidFlight(t *T) error {
	s, init, plans, failures, err := t.liveTools(InitOptions{})
	if err != nil {
		return err
	}
	for _, p := range probes(plans) {
		if s == nil {
			if s, init, err = t.Open(InitOptions{}); err != nil {
				return err
			}
		}
		id, ch, err := s.Send(protocol.MethodToolCall, callParams(p.e.def, p.c.Args))
		if err != nil {
			return err
		}
		if err := s.Cancel(id); err != nil {
			return err
		}
		resp, err := t.wait(s, id, ch)
		problem := ""
		switch {
		case err != nil:
			problem = "the cancelled call was never answered: " + err.Error()
		case resp.Error != nil && resp.Error.Code == -32800:
		default:
			if why := judgeValid(resp, p.e.def, init.APIVersion); why != "" {
				problem = "cancelled, it answered neither -32800 nor a valid result: " + why
			}
		}
		if f := t.record(s, p.e, p.c, problem); f != "" {
			failures = append(failures, f)
			if err != nil {
				s = nil
			}
		}
	}
	// One more call: the extension still serves, and a second answer to a cancelled call
	// (written on reading the cancel) is on the stream before this one's.
	if s != nil && len(probes(plans)) > 0 {
		p := probes(plans)[0]
		resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, callParams(p.e.def, p.c.Args))
		if err != nil {
			return fail("the extension to serve after cancellations", "%v", err)
		}
		if why := judgeValid(resp, p.e.def, init.APIVersion); why != "" {
			return fail("a valid answer after cancellations", "%s", why)
		}
		if v := s.Violations(); len(v) > 0 {
			return fail("each cancelled call answered exactly once", "%s", v[0])
		}
	}
	return t.exerciseSummary("each cancelled call answered once: -32800 or its result", failures)
}

// burst sends up to n probe calls (round robin over the planned tools' valid cases) at once.
func burst(s *Session, plans []exercised, n int) ([]pending, error) {
	var out []pending
	for round := 0; len(out) < n; round++ {
		added := false
		for _, e := range plans {
			if round >= len(e.plan.Valid) || len(out) >= n {
				continue
			}
			c := e.plan.Valid[round]
			id, ch, err := s.Send(protocol.MethodToolCall, callParams(e.def, c.Args))
			if err != nil {
				return out, err
			}
			out = append(out, pending{e: e, c: c, id: id, ch: ch})
			added = true
		}
		if !added {
			break
		}
	}
	return out, nil
}

type pending struct {
	e  exercised
	c  argsgen.Case
	id int64
	ch <-chan Response
}

// negotiated is the concurrency the extension answered (at most offered).
func negotiated(init *InitResult, offered int) int {
	n := offered
	if init.Protocol != nil && init.Protocol.Limits.MaxConcurrentRequests > 0 {
		n = min(n, init.Protocol.Limits.MaxConcurrentRequests)
	}
	return n
}

func checkConcurrentCalls(t *T) error {
	const offered = 8
	s, init, plans, failures, err := t.liveTools(InitOptions{MaxConcurrent: offered})
	if err != nil {
		return err
	}
	n := negotiated(init, offered)
	sent, err := burst(s, plans, n)
	if err != nil {
		return err
	}
	for _, p := range sent {
		resp, err := t.wait(s, p.id, p.ch)
		problem := ""
		switch {
		case err != nil:
			problem = fmt.Sprintf("one of %d concurrent calls was never answered: %v", len(sent), err)
		case resp.Error != nil && resp.Error.Code == -32001:
			problem = fmt.Sprintf("-32001 overloaded with %d calls in flight, within the negotiated max_concurrent_requests %d", len(sent), n)
		default:
			problem = judgeValid(resp, p.e.def, init.APIVersion)
		}
		if f := t.record(s, p.e, p.c, problem); f != "" {
			failures = append(failures, f)
		}
	}
	if len(sent) > 0 {
		t.Note("%d calls at once (negotiated max_concurrent_requests %d)", len(sent), n)
	}
	return t.exerciseSummary("every call within the concurrency limit admitted and answered", failures)
}

func checkShutdownDrains(t *T) error {
	s, init, plans, failures, err := t.liveTools(InitOptions{})
	if err != nil {
		return err
	}
	sent, err := burst(s, plans, min(4, negotiated(init, 64)))
	if err != nil {
		return err
	}
	shutID, shutCh, err := s.Send(protocol.MethodShutdown, map[string]any{"reason": "host_exit", "deadline_ms": t.Drain().Milliseconds()})
	if err != nil {
		return err
	}
	for _, p := range sent {
		resp, err := t.wait(s, p.id, p.ch)
		problem := ""
		switch {
		case err != nil:
			problem = "the shutdown dropped a call in flight: " + err.Error()
		case resp.Error != nil && resp.Error.Code == -32800:
		case resp.Error != nil && resp.Error.Code == -32003:
			problem = "-32003 for a call admitted before the shutdown"
		default:
			problem = judgeValid(resp, p.e.def, init.APIVersion)
		}
		if f := t.record(s, p.e, p.c, problem); f != "" {
			failures = append(failures, f)
		}
	}
	if len(sent) > 0 {
		resp, err := t.wait(s, shutID, shutCh)
		if err != nil {
			return fail("the shutdown acknowledged after the drain", "%v", err)
		}
		if resp.Error != nil {
			return fail("the shutdown acknowledged", "%s", resp.Error)
		}
		if !s.WaitExit(t.Drain() + time.Second) {
			return fail("the process to exit after acknowledging shutdown", "still running after %s", t.Drain()+time.Second)
		}
	}
	return t.exerciseSummary("calls in flight at shutdown drained before the acknowledgement", failures)
}
