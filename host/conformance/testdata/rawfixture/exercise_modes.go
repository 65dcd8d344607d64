package main

import (
	"encoding/json"
	"os"
	"sync/atomic"
	"time"

	"github.com/octet-kit/octet/host"
)

// Modes that break what the tools.* checks prove when they call the declared tools with
// generated arguments.
const (
	modeTypedNegativeCrash = "typed-negative-crash" // typed exits on a negative count, which its schema allows
	modeTypedOutputBreak   = "typed-output-break"   // typed answers count 0 with a structured_content its output_schema refuses
	modeCancelTwice        = "cancel-answers-twice" // a cancelled tool call is answered -32800 on top of its own answer
	modeSerialTools        = "serial-tools"         // tool calls take 50 ms and a second one in flight is refused -32001
	modeShutdownDrops      = "shutdown-drops-calls" // tool calls take 300 ms; shutdown is acknowledged at once, dropping them
)

// typedSchema is what the fixture declares for typed (docs/design/fixture.md).
var typedSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["count","label"],` +
	`"properties":{"count":{"type":"integer"},"label":{"type":"string"}}}`)

var toolsInFlight atomic.Int32

// exerciseTool applies the modes above before a tool runs; done reports that it answered.
func exerciseTool(name string, args map[string]json.RawMessage) (res any, e *rpcError, done bool) {
	switch mode {
	case modeSerialTools:
		n := toolsInFlight.Add(1)
		defer toolsInFlight.Add(-1)
		time.Sleep(50 * time.Millisecond)
		if n > 1 {
			return nil, &rpcError{Code: -32001, Message: "overloaded", Data: json.RawMessage(`{"limit":1}`)}, true
		}
	case modeShutdownDrops:
		time.Sleep(300 * time.Millisecond)
	}
	if name != "typed" {
		return nil, nil, false
	}
	var count int64
	_ = json.Unmarshal(args["count"], &count)
	switch {
	case mode == modeTypedNegativeCrash && count < 0:
		os.Exit(3)
	case mode == modeTypedOutputBreak && count == 0:
		return withStructured("typed", map[string]any{"count": "zero"}), nil, true
	}
	return nil, nil, false
}

// judgeArgs answers arguments the schema refuses as every SDK does: -32602 with the
// fault contract's pointer and keyword (from the host's own validator).
func judgeArgs(schema json.RawMessage, args map[string]json.RawMessage) *rpcError {
	raw, _ := json.Marshal(args)
	if args == nil {
		raw = []byte("{}")
	}
	f, err := host.JudgeSchema(schema, raw)
	if err != nil {
		return &rpcError{Code: -32603, Message: err.Error()}
	}
	if f == nil {
		return nil
	}
	data, _ := json.Marshal(map[string]string{"pointer": f.Pointer, "keyword": f.Keyword})
	return &rpcError{Code: -32602, Message: "invalid arguments: " + f.Pointer + ": " + f.Reason, Data: data}
}
