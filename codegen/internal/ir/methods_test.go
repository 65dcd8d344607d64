package ir_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// registry is a schema with an owner-carrying and a plain params type, and the given rows.
func registry(rows string) fstest.MapFS {
	return fstest.MapFS{
		"a.schema.json": &fstest.MapFile{Data: []byte(`{"$id": "https://octet-kit.dev/schema/a.schema.json", "title": "A", "$defs": {
			"Owned": {"type": "object", "additionalProperties": false, "properties": {"resource_owner": {"type": "string"}, "parent_request_id": {"type": "string"}}, "required": ["parent_request_id"]},
			"Plain": {"type": "object", "additionalProperties": false, "properties": {}}}}`)},
		"methods.json": &fstest.MapFile{Data: []byte(`{"description": "d", "methods": [` + rows + `]}`)},
	}
}

func row(name, direction, kind, extra, params string) string {
	r := `{"name": "` + name + `", "direction": "` + direction + `", "kind": "` + kind + `", "versions": ["0.4"], "params": {"0.4": "` + params + `"}, "description": "d"`
	if kind == "request" {
		r += `, "result": {"0.4": "Plain"}`
	}
	if extra != "" {
		r += ", " + extra
	}
	return r + "}"
}

// The routing metadata is checked against direction, kind and the params types.
func TestRoutingMetadataRefuses(t *testing.T) {
	cases := []struct{ name, rows, want string }{
		{"received without a role", row("a", "host_to_extension", "request", "", "Plain") + "," + row("b", "host_to_extension", "request", `"dispatch": "work"`, "Plain"), "dispatch: want one of"},
		{"sent with a role", row("a", "extension_to_host", "request", `"dispatch": "work"`, "Plain"), "an extension_to_host method has no dispatch role"},
		{"unknown role", row("a", "host_to_extension", "request", `"dispatch": "later"`, "Plain"), `got "later"`},
		{"event as a request", row("a", "host_to_extension", "request", `"dispatch": "event"`, "Plain"), "an event is a notification"},
		{"work as a notification", row("a", "host_to_extension", "notification", `"dispatch": "work"`, "Plain"), "work is a request"},
		{"owner_bound without an owner field", row("a", "host_to_extension", "request", `"dispatch": "work", "owner_bound": true`, "Plain"), "lack resource_owner"},
		{"owner field but not owner_bound", row("a", "host_to_extension", "request", `"dispatch": "work"`, "Owned"), "mark the method owner_bound"},
		{"sent without its place in the SDKs", row("a", "extension_to_host", "request", "", "Plain") + "," + row("b", "host_to_extension", "request", `"dispatch": "work"`, "Plain"), "needs its service, operation and arguments"},
		{"received with a place in the SDKs", row("a", "host_to_extension", "request", `"dispatch": "work", "sdk": {"service": "a", "operation": "b", "arguments": []}`, "Plain"), "only a method the extension sends"},
		{"argument that is no param", row("a", "extension_to_host", "request", `"sdk": {"service": "a", "operation": "b", "arguments": ["nope"]}`, "Plain") + "," + row("b", "host_to_extension", "request", `"dispatch": "work"`, "Plain"), `argument "nope" is not a field of Plain`},
		{"context field as an argument", row("a", "extension_to_host", "request", `"owner_bound": true, "sdk": {"service": "a", "operation": "b", "arguments": ["parent_request_id"]}`, "Owned") + "," + row("b", "host_to_extension", "request", `"dispatch": "work"`, "Plain"), "filled from the call in progress"},
		{"two methods in one place", row("a", "extension_to_host", "request", `"sdk": {"service": "s", "operation": "op", "arguments": []}`, "Plain") + "," + row("c", "extension_to_host", "request", `"sdk": {"service": "s", "operation": "op", "arguments": []}`, "Plain") + "," + row("b", "host_to_extension", "request", `"dispatch": "work"`, "Plain"), "s.op is already the place of a"},
		{"operation not snake_case", row("a", "extension_to_host", "request", `"sdk": {"service": "s", "operation": "requestInput", "arguments": []}`, "Plain") + "," + row("b", "host_to_extension", "request", `"dispatch": "work"`, "Plain"), "must be snake_case words"},
		{"sent owner_bound without a parent", row("a", "extension_to_host", "request", `"owner_bound": true`, "Plain") + "," + row("b", "host_to_extension", "request", `"dispatch": "work"`, "Plain"), "lack parent_request_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ir.Load(registry(c.rows))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	ok := row("a", "host_to_extension", "request", `"dispatch": "work", "owner_bound": true`, "Owned") + "," +
		row("b", "extension_to_host", "request", `"owner_bound": true, "sdk": {"service": "b", "operation": "go", "arguments": ["resource_owner"]}`, "Owned") + "," + row("c", "host_to_extension", "notification", `"dispatch": "event"`, "Plain")
	if _, err := ir.Load(registry(ok)); err != nil {
		t.Fatalf("valid routing refused: %v", err)
	}
	// A registry without any role (the release baseline) loads unchecked.
	if _, err := ir.Load(registry(row("a", "host_to_extension", "request", "", "Owned"))); err != nil {
		t.Fatalf("a registry older than the routing metadata refused: %v", err)
	}
}
