package octet

import (
	"bytes"
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// toolCall is a decoded tool/call: the envelope's fields and the arguments both as
// the strict parse's tree (for the tool's schema) and as raw JSON (for the handler).
type toolCall struct {
	name     string
	revision *int64
	owner    *protocol.ResourceOwner
	key      string          // idempotency_key ("" when absent)
	args     any             // the arguments object as strictjson parsed it
	rawArgs  json.RawMessage // the same object's bytes within params
}

// decodeToolCall parses tool/call params once, strictly, and validates the envelope
// on that tree: the verdicts and messages are checkParams's (the generated
// validator of the negotiated version's params type). The tool's schema then checks
// the arguments subtree and the handler decodes rawArgs, so no byte is parsed into
// a generic tree twice (the hot path of every tool call).
func decodeToolCall(apiVersion string, params json.RawMessage) (*toolCall, error) {
	typeName := toolCallParamsType.Params[apiVersion]
	if params == nil {
		params = json.RawMessage("{}")
	}
	doc, err := strictjson.Parse(params)
	if err == nil && typeName != "" {
		err = protocol.ValidateFromHost(typeName, doc)
	}
	if err != nil {
		return nil, invalidParams("", "%s params: %v", protocol.MethodToolCall, err)
	}
	// Valid against the schema: name is a string, arguments an object,
	// catalog_revision an integer, resource_owner complete; the assertions below
	// cannot fail for a version whose params type was checked.
	m, _ := doc.(map[string]any)
	tc := &toolCall{args: m["arguments"]}
	tc.name, _ = m["name"].(string)
	tc.key, _ = m["idempotency_key"].(string)
	if n, ok := m["catalog_revision"].(json.Number); ok {
		v, _ := n.Int64()
		tc.revision = &v
	}
	if o, ok := m["resource_owner"].(map[string]any); ok {
		n, _ := o["process_generation"].(json.Number)
		gen, _ := n.Int64()
		sid, _ := o["session_id"].(string)
		iid, _ := o["extension_instance_id"].(string)
		tc.owner = &protocol.ResourceOwner{SessionID: sid, ExtensionInstanceID: iid, ProcessGeneration: gen}
	}
	if tc.args != nil {
		tc.rawArgs = memberValue(params, "arguments")
	}
	return tc, nil
}

// toolCallParamsType names tool/call's params schema type per API version.
var toolCallParamsType, _ = protocol.LookupMethod(protocol.MethodToolCall)

// memberValue returns the raw value of key in a JSON object already known to be
// valid and free of duplicate keys (strictjson checked both), or nil.
func memberValue(obj []byte, key string) json.RawMessage {
	i := strictjson.SkipSpace(obj, 0) + 1 // past '{'
	for {
		i = strictjson.SkipSpace(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return nil // '}' (or malformed, which strictjson refused)
		}
		end := strictjson.StringEnd(obj, i)
		k := obj[i:end]
		match := string(k[1:len(k)-1]) == key
		if !match && bytes.IndexByte(k, '\\') >= 0 {
			var s string
			match = json.Unmarshal(k, &s) == nil && s == key
		}
		i = strictjson.SkipSpace(obj, end) + 1 // past ':'
		i = strictjson.SkipSpace(obj, i)
		vEnd := strictjson.ValueEnd(obj, i)
		if match {
			return json.RawMessage(obj[i:vEnd:vEnd])
		}
		i = strictjson.SkipSpace(obj, vEnd) + 1 // past ',' or '}'
	}
}
