package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// One verdict everywhere: the fixture's suite_args tool declares a parameters schema that
// exercises the keywords the SDKs' hand-written validators used to ignore; the check sends
// arguments straight over the wire (no host pre-check in between) and expects each SDK's
// answer to be the host's verdict: accepted, or -32602 with the fault contract's pointer
// and keyword.

// SuiteArgsSchema is suite_args' parameters schema (docs/design/fixture.md); every fixture
// declares exactly this.
const SuiteArgsSchema = `{"type":"object",
 "$defs":{"tag":{"type":"string","minLength":1}},
 "properties":{"tags":{"type":"array","items":{"$ref":"#/$defs/tag"},"uniqueItems":true},
  "step":{"type":"number","multipleOf":0.5},"card":{"type":"string"},"billing":{"type":"string"}},
 "dependentSchemas":{"card":{"required":["billing"]}},
 "unevaluatedProperties":false}`

// suiteArgsCases are valid and invalid arguments; the host's validator decides which is which.
var suiteArgsCases = []string{
	`{}`,
	`{"tags":["a","b"],"step":1.5,"card":"x","billing":"y"}`,
	`{"step":2}`,
	`{"tags":["a","a"]}`,
	`{"step":0.3}`,
	`{"card":"x"}`,
	`{"extra":1}`,
	`{"tags":[""]}`,
	`{"card":"x","extra":1}`,
	`{"tags":"a"}`,
}

func init() {
	register(&Check{
		Name: "schema.suite_verdicts",
		Description: "suite_args (unevaluatedProperties, $ref/$defs, dependentSchemas, uniqueItems, multipleOf) answers valid and invalid arguments sent straight over the wire " +
			"exactly as the host's validator judges them: accepted, or -32602 with data.pointer and data.keyword of the fault contract's fault and the message \"invalid arguments: <pointer>: ...\"",
		Requirement: "docs/conformance.md#validation-faults (a complete 2020-12 validator in every SDK, one fault one verdict); docs/design/fixture.md suite_args",
		// Binding wherever suite_args is declared: every SDK has a complete validator.
		Tier:   Conditional,
		Tools:  []string{"suite_args"},
		Covers: []string{protocol.MethodToolCall},
		Run:    checkSuiteVerdicts,
	})
}

func checkSuiteVerdicts(t *T) error {
	s, init, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	var declared json.RawMessage
	for _, tool := range init.Tools {
		if tool.Name == "suite_args" {
			declared = tool.Parameters
		}
	}
	var got, want any
	if json.Unmarshal(declared, &got) != nil || json.Unmarshal([]byte(SuiteArgsSchema), &want) != nil || !reflect.DeepEqual(got, want) {
		return fail("suite_args to declare exactly the parameters schema of docs/design/fixture.md", "%s", excerpt(declared, 300))
	}
	for _, args := range suiteArgsCases {
		f, err := host.JudgeSchema([]byte(SuiteArgsSchema), []byte(args))
		if err != nil {
			return err
		}
		resp, err := t.toolCall(s, "suite_args", json.RawMessage(args))
		if err != nil {
			return err
		}
		if f == nil {
			if _, err := expectText(resp, "accepted"); err != nil {
				return fmt.Errorf("arguments %s (valid): %w", args, err)
			}
			continue
		}
		where := f.Pointer
		if where == "" {
			where = "(root)"
		}
		want := fmt.Sprintf("-32602 with data {pointer: %q, keyword: %q} and a message starting \"invalid arguments: %s: \" (arguments %s)", f.Pointer, f.Keyword, where, args)
		if resp.Error == nil || resp.Error.Code != -32602 {
			return fail(want, "%s", resp)
		}
		var data struct {
			Pointer *string `json:"pointer"`
			Keyword string  `json:"keyword"`
		}
		_ = json.Unmarshal(resp.Error.Data, &data)
		prefix := "invalid arguments: " + where + ": "
		if data.Pointer == nil || *data.Pointer != f.Pointer || data.Keyword != f.Keyword || len(resp.Error.Message) < len(prefix) || resp.Error.Message[:len(prefix)] != prefix {
			return fail(want, "%s", resp.Error)
		}
	}
	return nil
}
