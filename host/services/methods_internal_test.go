package services

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// TestMethodTableFollowsRegistry: the table serves exactly the registry's extension->host
// methods, and building it refuses a registry method without a handler and a handler the
// registry does not list.
func TestMethodTableFollowsRegistry(t *testing.T) {
	n := 0
	for _, m := range protocol.Methods {
		if m.Direction != "extension_to_host" {
			if _, ok := methods[m.Name]; ok {
				t.Errorf("%s (%s) is served as an extension->host method", m.Name, m.Direction)
			}
			continue
		}
		n++
		got, ok := methods[m.Name]
		if !ok {
			t.Errorf("%s is not served", m.Name)
			continue
		}
		if got.notification() != (m.Kind == "notification") {
			t.Errorf("%s: notification %v, registry kind %s", m.Name, got.notification(), m.Kind)
		}
	}
	if n != len(methods) || n == 0 {
		t.Fatalf("%d registry methods, %d served", n, len(methods))
	}
	mustPanic := func(name string, reg []protocol.MethodInfo, serve map[string]func(*Router, context.Context, *Caller, json.RawMessage) (any, error)) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: methodTable accepted it", name)
			}
		}()
		methodTable(reg, serve)
	}
	extra := protocol.MethodInfo{Name: "throwaway/method", Direction: "extension_to_host", Kind: "request", Versions: []string{"0.4"}}
	mustPanic("registry method without a handler", append(append([]protocol.MethodInfo{}, protocol.Methods...), extra), handlers)
	more := map[string]func(*Router, context.Context, *Caller, json.RawMessage) (any, error){}
	for k, v := range handlers {
		more[k] = v
	}
	more["throwaway/method"] = (*Router).kvGet
	mustPanic("handler the registry does not list", protocol.Methods, more)
}

// TestGatesFollowRegistry: a method's gate is the registry's versions, feature and
// contribution, with the reasons the host has always given.
func TestGatesFollowRegistry(t *testing.T) {
	c := &Caller{APIVersion: "0.2", Features: map[string]bool{}}
	cases := map[string]string{
		protocol.MethodKVGet:              "it needs API 0.4; this process speaks 0.2",
		protocol.MethodArtifactPublish:    `feature "artifacts" was not negotiated`,
		protocol.MethodNotification:       "the manifest does not declare contributes.notifications",
		protocol.MethodStatusContribution: "the manifest declares no contributes.ui surface",
		protocol.MethodInputRequest:       "",
	}
	for name, want := range cases {
		if got := methods[name].unavailableFor(c); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	c.APIVersion = "0.1"
	if got := methods[protocol.MethodInputRequest].unavailableFor(c); got != "it needs API 0.2 or later; this process speaks 0.1" {
		t.Errorf("input/request on 0.1: %q", got)
	}
}
