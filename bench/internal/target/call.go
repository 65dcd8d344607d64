package target

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Call is the one tool call a session's Echo makes and how its answer is checked. The
// floors and the conformance fixture answer EchoCall; the SDKs' hello-world examples have
// only hello_world, so they answer HelloCall. Every timing loop calls Echo, so the same
// loop measures both.
type Call struct {
	Tool  string
	Args  json.RawMessage
	Check func(result json.RawMessage) error
}

// EchoCall is the echo tool with EchoValue; the answer must carry the value.
var EchoCall = Call{
	Tool: "echo",
	Args: json.RawMessage(`{"value":"` + EchoValue + `"}`),
	Check: func(res json.RawMessage) error {
		if !bytes.Contains(res, []byte(EchoValue)) {
			return fmt.Errorf("echo answered %s without the value", truncate(res))
		}
		return nil
	},
}

// HelloWant is the one answer every hello-world example gives HelloCall.
const HelloWant = "Hello, " + EchoValue + "!"

// HelloCall is the hello-world examples' one tool, greeting EchoValue. The answer must be
// exactly one text part reading HelloWant and not an error: the three examples greet the
// same way, so a difference between them is a fault, not a detail.
var HelloCall = Call{
	Tool:  "hello_world",
	Args:  json.RawMessage(`{"name":"` + EchoValue + `"}`),
	Check: checkHello,
}

func checkHello(res json.RawMessage) error {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"is_error"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return fmt.Errorf("hello_world answered %s, not a tool result: %v", truncate(res), err)
	}
	if r.IsError || len(r.Content) != 1 || r.Content[0].Type != "text" || r.Content[0].Text != HelloWant {
		return fmt.Errorf("hello_world answered %s, want one text part %q", truncate(res), HelloWant)
	}
	return nil
}
