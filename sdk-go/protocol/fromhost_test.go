package protocol_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// ValidateFromHost knows every type an extension receives (the params of each method the
// host sends, the results of each request the extension sends, in every version), judges
// each of their vectors exactly as Validate does, and refuses a type only a host checks.
func TestValidateFromHostIsValidateForWhatAnExtensionReceives(t *testing.T) {
	received := map[string]bool{}
	for _, m := range protocol.Methods {
		if m.Direction != protocol.DirectionExtensionToHost {
			for _, typ := range m.Params {
				received[typ] = true
			}
		}
		if m.Direction != protocol.DirectionHostToExtension {
			for _, typ := range m.Result {
				received[typ] = true
			}
		}
	}
	if len(received) < 20 {
		t.Fatalf("only %d received types in the registry", len(received))
	}
	checked := 0
	for typ := range received {
		files, _ := filepath.Glob("../../schema/vectors/" + typ + "/*/*.json")
		if len(files) == 0 {
			// No vectors for this type: it must at least be known.
			if err := protocol.ValidateFromHost(typ, map[string]any{}); err != nil && strings.Contains(err.Error(), "not a schema type") {
				t.Errorf("%s: %v", typ, err)
			}
			continue
		}
		for _, f := range files {
			raw, _ := os.ReadFile(f)
			doc, err := strictjson.Parse(raw)
			if err != nil {
				continue // the strict decoder's vectors: never reach a validator
			}
			want, got := protocol.Validate(typ, doc), protocol.ValidateFromHost(typ, doc)
			if (want == nil) != (got == nil) || (want != nil && want.Error() != got.Error()) {
				t.Errorf("%s: Validate %v, ValidateFromHost %v", f, want, got)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d vectors checked", checked)
	}
	for _, hostOnly := range []string{"InitializeResult", "HookRunResult", "ArtifactPublishParams"} {
		if received[hostOnly] {
			t.Fatalf("%s is received by an extension; pick another host-only type", hostOnly)
		}
		if err := protocol.ValidateFromHost(hostOnly, map[string]any{}); err == nil {
			t.Errorf("ValidateFromHost judged %s, a type only a host checks", hostOnly)
		}
	}
}
