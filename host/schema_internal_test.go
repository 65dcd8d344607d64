package host

import (
	"encoding/json"
	"testing"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
)

// The initialize params this host sends must satisfy the schema for every API version, with
// and without services (different feature offers) and with a session.
func TestInitializeParamsMatchTheSchema(t *testing.T) {
	for _, api := range []string{"0.1", "0.2", "0.4"} {
		src := "name = \"x\"\nversion = \"1.0.0\"\napi_version = \"" + api + "\"\n[entrypoint]\ncommand = \"x\"\n[contributes]\ntools = [\"t\"]\n"
		if api != "0.1" {
			src += "[capabilities]\nsecrets = [\"s\"]\n"
		}
		m, diags := manifest.Parse([]byte(src), "/ext/x/extension.toml", manifest.Options{})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		for _, services := range []bool{false, true} {
			o := Options{Workspace: "/ws", Session: Session{SessionID: "s1", Model: &Model{Provider: "p", ID: "m"}}}
			if services {
				o.Services, o.SecretBroker = noServices{}, true
			}
			o.withDefaults()
			p, _ := buildInitialize(&discovery.Entry{Source: discovery.Explicit}, m, &o)
			raw, _ := json.Marshal(p)
			if err := validateAs(initializeParamsType(api), raw); err != nil {
				t.Errorf("API %s services=%v: %v\n%s", api, services, err, raw)
			}
		}
	}
}

func TestInitializeResultSchemaRefusesBadShapes(t *testing.T) {
	good := `{"api_version":"0.4","name":"x","version":"1.0.0","tools":[{"name":"t","description":"d","parameters":{"type":"object"}}],"commands":[],"protocol":{"version":"0.4","features":["request_cancellation","content_parts"],"limits":{"max_concurrent_requests":2}}}`
	if err := validateInitializeResult("0.4", []byte(good)); err != nil {
		t.Fatalf("good result refused: %v", err)
	}
	bad := `{"api_version":"0.4","name":"x","version":"1.0.0","tools":[{"name":"t","description":"d","parameters":"object"}],"commands":[],"protocol":{"version":"0.4","features":[],"limits":{"max_concurrent_requests":2}}}`
	if err := validateInitializeResult("0.4", []byte(bad)); err == nil {
		t.Fatalf("parameters as a string accepted")
	}
}

// isAnyObject is true for exactly the schema {"type":"object"}, however it is spelled.
func TestIsAnyObject(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"type":"object"}`: true, ` { "type" : "ob\u006aect" } `: true, `{"type":"object","type":"object"}`: true,
		`{"type":"object","properties":{}}`: false, `{"type":"string"}`: false, `{"type":["object"]}`: false,
		`{"Type":"object"}`: false, `{}`: false, `null`: false, `true`: false, `{"type":"object"`: false,
	} {
		if got := isAnyObject(json.RawMessage(raw)); got != want {
			t.Errorf("isAnyObject(%s) = %v, want %v", raw, got, want)
		}
	}
}
