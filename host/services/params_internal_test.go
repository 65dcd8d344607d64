package services

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// TestSchemaRefusalWording: the generated validator's verdicts reach the extension as the
// host's -32602 messages, each naming the field path.
func TestSchemaRefusalWording(t *testing.T) {
	cases := []struct{ params, want string }{
		{`{"namespace":"demo"}`, "invalid params: key: is required"},
		{`{"namespace":"demo","key":"a","extra":1}`, "invalid params: extra: is not a known field"},
		{`{"Namespace":"demo","key":"a"}`, "invalid params: namespace: is required"},
		{`{"namespace":"demo","key":null}`, "invalid params: key: must not be null"},
		{`{"namespace":"demo","key":5}`, "invalid params: key: must be a string, not number"},
		{`[1]`, "invalid params: must be an object"},
		{`{"namespace":"demo","key":""}`, "invalid params: key: want 1..512 UTF-8 bytes, got 0"},
		{`{"namespace":"demo","key":1.5}`, "invalid params: key: must be a string, not number 1.5"},
	}
	for _, tc := range cases {
		_, err := decode[protocol.KVGetParams](json.RawMessage(tc.params))
		we, ok := err.(*jsonrpc.Error)
		if !ok || we.Code != protocol.CodeInvalidParams || we.Message != tc.want {
			t.Errorf("%s: got %v, want %q", tc.params, err, tc.want)
		}
	}
	long := `{"snapshot":{"revision":1,"status":{"state":"active","label":"` + strings.Repeat("x", 129) + `"},"activities":[],"actions":[]}}`
	_, err := decode[protocol.PresentationUpdateParams](json.RawMessage(long))
	if err == nil || err.(*jsonrpc.Error).Message != "invalid params: snapshot.status.label: is 129 characters; the limit is 128" {
		t.Errorf("label of 129: %v", err)
	}
	_, err = decodeWorded[protocol.PolicyEvaluateParams](json.RawMessage(`{"parent_request_id":1,"intent":{"kind":"k","operation":"o"},"approval_token":"x"}`), policyWording)
	if err == nil || err.(*jsonrpc.Error).Message != "invalid params: approval_token: must be 64 lowercase hex digits" {
		t.Errorf("worded token: %v", err)
	}
}
