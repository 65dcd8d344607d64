package host

import (
	"encoding/json"
	"testing"
)

// argumentsPass decides only passes, and on every input it passes judge finds no fault:
// the fast path can never admit arguments the full check refuses.
func TestArgumentsPassAgreesWithJudge(t *testing.T) {
	s, err := compileToolSchema(json.RawMessage(`{"type":"object","properties":{
		"value":{"type":"string","maxLength":8},"n":{"type":"integer","minimum":1},
		"tags":{"type":"array","items":{"type":"string"}}},
		"required":["value"],"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args string
		pass bool
	}{
		{`{"value":"a"}`, true},
		{`{"value":"a","n":2,"tags":["x","y"]}`, true},
		{`{"value":"a","n":1.0}`, true},
		{`{"value":"\u00e9<>&\"\\"}`, true},
		{`{"value":"a","n":0}`, false},
		{`{"value":"123456789"}`, false},
		{`{"n":2}`, false},
		{`{"value":"a","extra":1}`, false},
		{`{"value":"a","value":"b"}`, false}, // strict parse refuses duplicates; judge decides
		{`{"value":1}`, false},
		{`[1]`, false},
		{`{"value":"a"`, false},
		{`{"value":"a","tags":[1]}`, false},
	} {
		got := argumentsPass(s, json.RawMessage(tc.args))
		if got != tc.pass {
			t.Errorf("argumentsPass(%s) = %v, want %v", tc.args, got, tc.pass)
		}
		f, err := judge(s, []byte(tc.args))
		if got && (f != nil || err != nil) {
			t.Errorf("argumentsPass(%s) passed what judge refuses: %+v %v", tc.args, f, err)
		}
		if !got && tc.pass {
			t.Errorf("argumentsPass(%s) refused valid arguments", tc.args)
		}
	}
}
