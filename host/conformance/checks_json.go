package conformance

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

func init() {
	register(
		&Check{
			Name: "rpc.strict_json",
			Description: "requests that are JSON but break the wire's JSON rules (a key repeated in params or in the envelope, a lone surrogate escape) " +
				"are answered -32602 (-32600 for the envelope) and the stream goes on, in every language alike",
			Requirement: "schema/README.md (duplicate keys and lone surrogates refused); wire.md §1",
			Tier:        Conditional,
			Tools:       []string{"typed"},
			Covers:      []string{"tool/call error -32602"},
			Run:         checkStrictJSON,
		},
		&Check{
			Name: "rpc.nesting_bound",
			Description: "a request nested exactly MAX_JSON_DEPTH (128) levels is served; one level deeper, or 100,000 levels deep, is answered -32602 " +
				"naming the bound and the stream goes on, in every language alike",
			Requirement: "schema/limits.schema.json MAX_JSON_DEPTH; issue 19 (every input has a bound, enforced while reading)",
			Tier:        Conditional,
			Tools:       []string{"echo"},
			Covers:      []string{"tool/call error -32602"},
			Run:         checkNestingBound,
		},
	)
}

// nestedEcho is a tool/call of echo whose whole frame nests levels deep: envelope 1,
// params 2, arguments 3, then the value's arrays.
func nestedEcho(levels int) func(id int64) ([]byte, error) {
	n := levels - 3
	return func(id int64) ([]byte, error) {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tool/call","params":{"name":"echo","arguments":{"value":%s%s}}}`,
			id, bytes.Repeat([]byte("["), n), bytes.Repeat([]byte("]"), n)), nil
	}
}

func checkNestingBound(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	id, ch, err := s.SendFrame(nestedEcho(protocol.MaxJSONDepth))
	if err != nil {
		return err
	}
	resp, err := s.Wait(t.Ctx, id, ch)
	if err != nil {
		return fmt.Errorf("a request nested %d levels: %w", protocol.MaxJSONDepth, err)
	}
	if resp.Error != nil {
		return fail(fmt.Sprintf("a request nested exactly %d levels served", protocol.MaxJSONDepth), "%s", resp.Error)
	}
	want := fmt.Sprintf("nesting deeper than %d levels (MAX_JSON_DEPTH)", protocol.MaxJSONDepth)
	for _, levels := range []int{protocol.MaxJSONDepth + 1, 100_000} {
		what := fmt.Sprintf("a request nested %d levels", levels)
		id, ch, err := s.SendFrame(nestedEcho(levels))
		if err != nil {
			return err
		}
		resp, err := s.Wait(t.Ctx, id, ch)
		if err != nil {
			return fmt.Errorf("%s: %w (a refusal must leave the stream open)", what, err)
		}
		if err := expectCode(resp, -32602, what); err != nil {
			return err
		}
		if !strings.Contains(resp.Error.Message, want) {
			return fail(fmt.Sprintf("%s refused with a message saying %q", what, want), "%s", resp.Error)
		}
	}
	resp, err = t.toolCall(s, "echo", map[string]any{"value": "ok"})
	if err != nil {
		return err
	}
	if _, err := expectText(resp, "echo"); err != nil {
		return fmt.Errorf("after the refusals the stream must still serve: %w", err)
	}
	return nil
}

func checkStrictJSON(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	answer := func(what string, code int64, build func(id int64) ([]byte, error)) error {
		id, ch, err := s.SendFrame(build)
		if err != nil {
			return err
		}
		resp, err := s.Wait(t.Ctx, id, ch)
		if err != nil {
			return fmt.Errorf("%s: %w (a refusal must leave the stream open)", what, err)
		}
		return expectCode(resp, code, what)
	}
	request := func(params string) func(int64) ([]byte, error) {
		return func(id int64) ([]byte, error) {
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tool/call","params":%s}`, id, params), nil
		}
	}
	for _, c := range []struct{ what, params string }{
		{"a key repeated in the tool's arguments", `{"name":"typed","arguments":{"count":1,"count":2,"label":"a"}}`},
		{"a key repeated in params", `{"name":"typed","name":"typed","arguments":{"count":1,"label":"a"}}`},
		{"a lone surrogate escape in a string argument", `{"name":"typed","arguments":{"count":1,"label":"\ud800"}}`},
	} {
		if err := answer(c.what, -32602, request(c.params)); err != nil {
			return err
		}
	}
	err = answer("a key repeated in the envelope", -32600, func(id int64) ([]byte, error) {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tool/call","method":"tool/call","params":{"name":"typed","arguments":{"count":1,"label":"a"}}}`, id), nil
	})
	if err != nil {
		return err
	}
	// A notification cannot be answered: it is dropped, and the stream still serves.
	if err := s.WriteLine([]byte(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1,"id":2}}`)); err != nil {
		return err
	}
	resp, err := t.toolCall(s, "typed", map[string]any{"count": 3, "label": "ok"})
	if err != nil {
		return err
	}
	if _, err := expectText(resp, "ok:3"); err != nil {
		return fmt.Errorf("after the refusals the stream must still serve: %w", err)
	}
	// An escaped surrogate pair is one character: valid, and it passes through.
	id, ch, err := s.SendFrame(request(`{"name":"typed","arguments":{"count":1,"label":"\ud83d\ude00"}}`))
	if err != nil {
		return err
	}
	if resp, err = s.Wait(t.Ctx, id, ch); err != nil {
		return err
	}
	_, err = expectText(resp, "\U0001F600:1")
	return err
}
