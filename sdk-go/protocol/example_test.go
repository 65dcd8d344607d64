package protocol_test

import (
	"encoding/json"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// Decoding a frame's params strictly: the schema is checked before any Go value is filled.
func ExampleUnmarshal() {
	var p protocol.ToolCallParams
	err := protocol.Unmarshal([]byte(`{"name": "echo", "arguments": {"text": "hi"}, "catalog_revision": 1.0}`), &p)
	fmt.Println(err)

	// An open object (the arguments) is validated with the rest and kept as the bytes sent.
	err = protocol.Unmarshal([]byte(`{"name": "echo", "arguments": {"text": "hi", "n": 1.0}}`), &p)
	fmt.Println(err, p.Name, string(p.Arguments))
	// Output:
	// $.catalog_revision: want an integer within ±(2^53-1) written without fraction or exponent, got number 1.0
	// <nil> echo {"text": "hi", "n": 1.0}
}

// Checking an already parsed document by schema type name, with messages or verdict only.
func ExampleValidate() {
	doc, _ := strictjson.Parse([]byte(`{"message": "hi", "level": "loud", "extra": 1}`))
	fmt.Println(protocol.Validate("NotificationParams", doc))
	fmt.Println(protocol.Valid("NotificationParams", doc))
	// Output:
	// $: unknown field "extra"; $.level: want one of info, success, warning, error, got "loud"
	// false
}

// Required arrays marshal as [] and union discriminators are filled in.
func ExampleToolResult() {
	b, _ := json.Marshal(protocol.ToolResult{Content: []protocol.ContentPart{{TextPart: &protocol.TextPart{Text: "done"}}}})
	fmt.Println(string(b))
	// Output:
	// {"content":[{"type":"text","text":"done"}]}
}
