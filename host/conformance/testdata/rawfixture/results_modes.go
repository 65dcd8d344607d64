package main

import (
	"encoding/json"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/conformance"
)

// Modes that break what the host checks in every result (results.checked_by_host) and how
// the host applies hook dispositions (hooks.dispositions_applied).
const (
	// modeResultUnknownField: echo's result carries a member no ToolResult has.
	modeResultUnknownField = "result-unknown-field"
)

// resultsMode rewrites a tool result for the modes above; every other mode returns it as is.
func resultsMode(tool string, res any) any {
	if mode == modeResultUnknownField && tool == "echo" {
		if m, ok := res.(map[string]any); ok {
			m["conformance_extra"] = true
		}
	}
	return res
}

// modeSuiteLenient: suite_args accepts whatever arguments it gets, as a validator that
// ignores keywords would.
const modeSuiteLenient = "suite-lenient"

// suiteArgsSchema is the schema every fixture declares for suite_args.
var suiteArgsSchema = json.RawMessage(conformance.SuiteArgsSchema)

// suiteArgs judges the arguments with the host's validator, so this fixture answers the
// verdict the suite expects: accepted, or -32602 with the contract's pointer and keyword.
func suiteArgs(args map[string]json.RawMessage) (any, *rpcError) {
	raw, _ := json.Marshal(args)
	if args == nil {
		raw = []byte("{}")
	}
	f, err := host.JudgeSchema(suiteArgsSchema, raw)
	if err != nil {
		return nil, &rpcError{Code: -32603, Message: err.Error()}
	}
	if f == nil || mode == modeSuiteLenient {
		return text("accepted"), nil
	}
	where := f.Pointer
	if where == "" {
		where = "(root)"
	}
	data, _ := json.Marshal(map[string]string{"pointer": f.Pointer, "keyword": f.Keyword})
	return nil, &rpcError{Code: -32602, Message: "invalid arguments: " + where + ": " + f.Reason, Data: data}
}

// modeHookIgnore: every hook answers continue, whatever hooks.dispositions_applied asks.
const modeHookIgnore = "hook-ignore"

// hookDisposition answers hook/run as docs/design/fixture.md says: a tool hook by the
// call's "value" argument, before_prompt by the prompt.
func hookDisposition(params json.RawMessage) any {
	var p struct {
		Hook    string `json:"hook"`
		Payload struct {
			Prompt    string `json:"prompt"`
			Arguments struct {
				Value any `json:"value"`
			} `json:"arguments"`
		} `json:"payload"`
	}
	_ = json.Unmarshal(params, &p)
	value, _ := p.Payload.Arguments.Value.(string)
	d := func(kv ...any) any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return map[string]any{"disposition": m}
	}
	if mode != modeHookIgnore {
		switch {
		case p.Hook == "before_prompt" && p.Payload.Prompt == "hook:block", p.Hook == "before_tool_call" && value == "hook:block":
			return d("action", "block", "message", "blocked by the fixture")
		case p.Hook == "before_prompt" && p.Payload.Prompt == "hook:rewrite":
			return d("action", "replace", "prompt", "rewritten by the fixture")
		case p.Hook == "before_tool_call" && value == "hook:rewrite":
			return d("action", "replace", "arguments", map[string]any{"value": "rewritten by the fixture"})
		case p.Hook == "after_tool_call" && value == "hook:replace":
			return d("action", "replace", "output", "replaced by the fixture")
		case p.Hook == "after_tool_call" && value == "hook:withhold":
			return d("action", "block", "message", "withheld by the fixture")
		}
	}
	if p.Hook == "after_tool_call" {
		return map[string]any{}
	}
	return d("action", "continue")
}
