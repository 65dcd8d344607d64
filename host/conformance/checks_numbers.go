package conformance

import (
	"encoding/json"
	"fmt"
)

// An author's schema is standard draft 2020-12, not the octet wire: an integral number
// written 1.0 is an integer there, and the handler receives the integer. The wire rule
// that refuses 1.0 (rpc.strict_json) is for the protocol's own fields only.

func init() {
	register(&Check{
		Name: "schema.integral_numbers",
		Description: "an integer tool argument written 1.0, 1e0 or 10E-1 is an integer to the author's schema (draft 2020-12) and reaches the handler " +
			"as the integer 1; 1.5 is refused -32602 with the contract's type fault, in every language alike",
		Requirement: "schema/vectors/numbers (an author's schema is standard draft 2020-12: a number with a zero fractional part is an integer); docs/conformance.md#validation-faults",
		Tier:        Conditional,
		Tools:       []string{"typed"},
		Covers:      []string{"tool/call error -32602"},
		Run:         checkIntegralNumbers,
	})
}

func checkIntegralNumbers(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	call := func(count string) (Response, error) {
		id, ch, err := s.SendFrame(func(id int64) ([]byte, error) {
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tool/call","params":{"name":"typed","arguments":{"count":%s,"label":"a"}}}`, id, count), nil
		})
		if err != nil {
			return Response{}, err
		}
		return t.wait(s, id, ch)
	}
	for _, count := range []string{"1.0", "1e0", "10E-1"} {
		resp, err := call(count)
		if err != nil {
			return err
		}
		// "a:1", never "a:1.0": a Python handler would print a float it was handed.
		if _, err := expectText(resp, "a:1"); err != nil {
			return fmt.Errorf("the integer argument written %s: %w", count, err)
		}
	}
	resp, err := call("1.5")
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "an integer argument written 1.5"); err != nil {
		return err
	}
	// The pointer and keyword, not the reason's words: those are each validator's own (the
	// SDKs' are fixed by schema/vectors/numbers in their own tests).
	var data struct{ Pointer, Keyword string }
	if json.Unmarshal(resp.Error.Data, &data) != nil || data.Pointer != "/count" || data.Keyword != "type" {
		return fail(`error data naming pointer "/count" and keyword "type"`, "%s", resp.Error)
	}
	return nil
}
