package services_test

import (
	"strings"
	"testing"
)

func TestSecretGet(t *testing.T) {
	e := newEnv(t, mustScript(t, `
[secrets]
"api.token" = "tok-value-123"
"other.token" = "not-yours"
`))
	var res struct{ Value string }
	e.ok("secret/get", `{"parent_request_id":7,"name":"api.token"}`, &res)
	if res.Value != "tok-value-123" {
		t.Fatalf("value %q", res.Value)
	}
	cases := []struct {
		params string
		code   int64
	}{
		{`{"parent_request_id":7,"name":"other.token"}`, -32602},   // undeclared
		{`{"parent_request_id":7,"name":"missing.token"}`, -32004}, // declared, no value
		{`{"parent_request_id":7,"name":"9bad"}`, -32602},
		{`{"parent_request_id":7,"name":"` + strings.Repeat("a", 65) + `"}`, -32602},
		{`{"parent_request_id":8,"name":"api.token"}`, -32002},
		{`{"name":"api.token"}`, -32602},
	}
	for _, tc := range cases {
		err := e.fails("secret/get", tc.params, tc.code)
		if strings.Contains(err.Message+string(err.Data), "tok-value") || strings.Contains(err.Message+string(err.Data), "not-yours") {
			t.Fatalf("error leaks a value: %s %s", err.Message, err.Data)
		}
		if tc.code == -32004 && (err.Message != "secret is unavailable" || err.Data != nil) {
			t.Fatalf("-32004 must be bare: %q %s", err.Message, err.Data)
		}
	}
	// No broker configured at all: unavailable.
	e2 := newEnv(t, nil)
	e2.fails("secret/get", `{"parent_request_id":7,"name":"api.token"}`, -32004)
}
