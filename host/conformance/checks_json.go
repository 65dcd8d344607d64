package conformance

import (
	"fmt"
)

func init() {
	register(
		&Check{
			Name: "rpc.strict_json",
			Description: "requests that are JSON but break the wire's JSON rules (a key repeated in params or in the envelope, a lone surrogate escape, an integer written 1.0 or 1e0) " +
				"are answered -32602 (-32600 for the envelope) and the stream goes on, in every language alike",
			Requirement: "schema/README.md (octet vocabulary: integers without fraction or exponent; duplicate keys and lone surrogates refused); wire.md §1",
			Tier:        Conditional,
			Tools:       []string{"typed"},
			Covers:      []string{"tool/call error -32602"},
			Run:         checkStrictJSON,
		},
	)
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
		{"an integer argument written 1.0", `{"name":"typed","arguments":{"count":1.0,"label":"a"}}`},
		{"an integer argument written 1e0", `{"name":"typed","arguments":{"count":1e0,"label":"a"}}`},
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
