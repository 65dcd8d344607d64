package services_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/services"
)

// TestSchemaInvalidVectorsRefused feeds every invalid vector of every
// extension->host params type (schema/vectors, the corpus every language
// judges alike) to the router: requests must be refused with -32602,
// notifications must be dropped with a diagnostic. The router validates by
// hand, so this keeps it from ever accepting what the schema refuses.
func TestSchemaInvalidVectorsRefused(t *testing.T) {
	root := filepath.Join("..", "..", "schema")
	raw, err := os.ReadFile(filepath.Join(root, "methods.json"))
	if err != nil {
		t.Skipf("schema not available: %v", err)
	}
	var reg struct {
		Methods []struct {
			Name      string            `json:"name"`
			Direction string            `json:"direction"`
			Kind      string            `json:"kind"`
			Params    map[string]string `json:"params"`
		} `json:"methods"`
	}
	if err := json.Unmarshal(raw, &reg); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, m := range reg.Methods {
		if m.Direction != "extension_to_host" {
			continue
		}
		for versions, typ := range m.Params {
			if !strings.Contains(versions, "0.4") {
				continue
			}
			dir := filepath.Join(root, "vectors", typ, "invalid")
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			for _, f := range files {
				body, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				name := m.Name + "/" + filepath.Base(f)
				t.Run(name, func(t *testing.T) {
					e := newEnv(t, nil)
					if m.Kind == "request" {
						res, werr := e.call(m.Name, json.RawMessage(body))
						if werr == nil || werr.Code != -32602 {
							t.Fatalf("schema-invalid params %s: got %s / %v, want -32602", body, res, werr)
						}
						return
					}
					e.notify(m.Name, json.RawMessage(body))
					for _, ev := range e.events {
						if ev.Kind != services.EventDiagnostic {
							t.Fatalf("schema-invalid notification %s was accepted (%s event)", body, ev.Kind)
						}
					}
					if len(e.eventsOf(services.EventDiagnostic)) == 0 && m.Name != "$/progress" {
						t.Fatalf("schema-invalid notification %s dropped without a diagnostic", body)
					}
				})
				checked++
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d invalid vectors found; is schema/vectors laid out as expected?", checked)
	}
}

// TestSchemaValidVectorsAccepted is the other direction: a schema-valid
// params object is never refused as malformed (-32602), except where the
// wire adds a rule the schema cannot express (listed, with the reason).
func TestSchemaValidVectorsAccepted(t *testing.T) {
	semantic := map[string]string{
		"presentation/update/synth-all-fields.json": "parent_request_id and resource_owner are mutually exclusive (wire.md §7)",
		"artifact/publish/synth-all-fields.json":    "mime_type must be a type/subtype MIME type; the schema allows any string (\"x\")",
		"artifact/publish/synth-minimal.json":       "mime_type must be a type/subtype MIME type; the schema allows any string (\"x\")",
		"kv.list/synth-all-fields.json":             "a cursor is opaque: only one this host issued is accepted",
	}
	root := filepath.Join("..", "..", "schema")
	raw, err := os.ReadFile(filepath.Join(root, "methods.json"))
	if err != nil {
		t.Skipf("schema not available: %v", err)
	}
	var reg struct {
		Methods []struct {
			Name, Direction, Kind string
			Params                map[string]string
		}
	}
	json.Unmarshal(raw, &reg)
	checked := 0
	for _, m := range reg.Methods {
		if m.Direction != "extension_to_host" {
			continue
		}
		for versions, typ := range m.Params {
			if !strings.Contains(versions, "0.4") {
				continue
			}
			files, _ := filepath.Glob(filepath.Join(root, "vectors", typ, "valid", "*.json"))
			for _, f := range files {
				body, _ := os.ReadFile(f)
				name := m.Name + "/" + filepath.Base(f)
				t.Run(name, func(t *testing.T) {
					e := newEnv(t, nil)
					// The vectors use secret API_TOKEN and their own namespace
					// (the caller is named after it, so it is not foreign).
					e.c.Extension = "x"
					var top struct{ Namespace string }
					if json.Unmarshal(body, &top) == nil && top.Namespace != "" {
						e.c.Extension = top.Namespace
					}
					e.c.Secrets = append(e.c.Secrets, "API_TOKEN")
					refused := ""
					if m.Kind == "request" {
						if _, werr := e.call(m.Name, json.RawMessage(body)); werr != nil && werr.Code == -32602 {
							refused = werr.Message
						}
					} else {
						e.notify(m.Name, json.RawMessage(body))
						if d := e.lastDiagnostic(); strings.Contains(d, "-32602") {
							refused = d
						}
					}
					if why, ok := semantic[name]; ok {
						if refused == "" {
							t.Fatalf("expected a refusal (%s)", why)
						}
						return
					}
					if refused != "" {
						t.Fatalf("schema-valid params %s refused: %s", body, refused)
					}
				})
				checked++
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d valid vectors found", checked)
	}
}
