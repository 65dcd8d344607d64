package services_test

import (
	"context"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

func TestNewRouterNeedsStore(t *testing.T) {
	if _, err := services.NewRouter(services.RouterConfig{}); err == nil || !strings.Contains(err.Error(), "Store") {
		t.Fatalf("NewRouter without a store: %v", err)
	}
}

func TestUnknownAndGatedMethods(t *testing.T) {
	e := newEnv(t, nil)
	err := e.fails("tool/call", `{}`, -32601)
	if !contains(err.Data, `"method":"tool/call"`) {
		t.Errorf("method_not_found data %s does not name the method", err.Data)
	}
	// A feature that was not negotiated: the method does not exist here.
	delete(e.c.Features, "kv")
	err = e.fails("kv.get", `{"namespace":"demo","key":"a"}`, -32601)
	if !strings.Contains(err.Message, `"kv"`) {
		t.Errorf("message %q does not name the feature", err.Message)
	}
	// kv is API 0.4 only.
	e.c.Features["kv"] = true
	e.c.APIVersion = "0.2"
	e.fails("kv.get", `{"namespace":"demo","key":"a"}`, -32601)
	// input/request needs API 0.2.
	e.c.APIVersion = "0.1"
	e.fails("input/request", `{"parent_request_id":7,"prompt":"x","secret":false}`, -32601)
	// Manifest gate.
	e.c.APIVersion = "0.4"
	e.c.Confirmations = false
	err = e.fails("confirmation/request", `{"message":"ok?","parent_request_id":7}`, -32601)
	if !strings.Contains(err.Message, "contributes.confirmations") {
		t.Errorf("message %q does not name the manifest field", err.Message)
	}
}

func TestKindMismatch(t *testing.T) {
	e := newEnv(t, nil)
	e.fails("notification", `{"message":"hi","level":"info"}`, -32600)
	// A request method sent as a notification is dropped with a diagnostic.
	e.notify("kv.get", `{"namespace":"demo","key":"a"}`)
	if d := e.lastDiagnostic(); !strings.Contains(d, "is a request") {
		t.Errorf("diagnostic %q", d)
	}
	e.notify("no/such", `{}`)
	if d := e.lastDiagnostic(); !strings.Contains(d, "unknown notification") {
		t.Errorf("diagnostic %q", d)
	}
}

func TestStrictDecoding(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name, params, path string
	}{
		{"unknown field", `{"namespace":"demo","key":"a","extra":1}`, "extra"},
		{"wrong case", `{"Namespace":"demo","key":"a"}`, "namespace"},
		{"missing", `{"namespace":"demo"}`, "key"},
		{"null", `{"namespace":"demo","key":null}`, "key"},
		{"wrong type", `{"namespace":"demo","key":5}`, "key"},
		{"not an object", `[1]`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := e.fails("kv.get", tc.params, -32602)
			if tc.path != "" && !contains(err.Data, `"path":"`+tc.path+`"`) {
				t.Errorf("error data %s does not name path %q", err.Data, tc.path)
			}
		})
	}
	// Non-integer numbers are not integers on our wire.
	err := e.fails("agent/wait", `{"parent_request_id":7,"timeout_ms":1.5}`, -32602)
	if !strings.Contains(err.Message, "timeout_ms") {
		t.Errorf("message %q does not name timeout_ms", err.Message)
	}
}

func TestHandleNeedsCallerAndRequest(t *testing.T) {
	e := newEnv(t, nil)
	if _, err := e.r.Handle(context.Background(), nil, &jsonrpc.Request{Method: "x"}); err == nil {
		t.Fatal("nil caller accepted")
	}
}

func TestCallsAreRecordedWithoutParams(t *testing.T) {
	e := newEnv(t, nil)
	e.ok("kv.get", `{"namespace":"demo","key":"a"}`, nil)
	e.fails("kv.get", `{"namespace":"other","key":"a"}`, -32602)
	calls, err := e.st.Calls(context.Background(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 || calls[0].Method != "kv.get" || calls[0].ErrorCode != nil || calls[1].ErrorCode == nil || *calls[1].ErrorCode != -32602 {
		t.Fatalf("call records %+v", calls)
	}
}
