package protocol_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// Every valid vector decodes into its generated Go type and marshals back to the same JSON
// value (absent stays absent, null stays null, required arrays stay arrays); a second
// round trip is byte-identical. Every invalid vector is refused by Unmarshal.
func TestVectorRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../schema/vectors/*/*/*.json")
	if len(files) == 0 {
		t.Fatal("no vectors")
	}
	checked := 0
	for _, f := range files {
		parts := strings.Split(filepath.ToSlash(f), "/")
		typ, verdict := parts[len(parts)-3], parts[len(parts)-2]
		v, ok := protocol.NewMessage(typ)
		if !ok {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		err = protocol.Unmarshal(raw, v)
		if verdict == "invalid" {
			if err == nil {
				t.Errorf("%s: Unmarshal accepted an invalid vector", f)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checked++
		out, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%s: marshal: %v", f, err)
			continue
		}
		want, _ := strictjson.Parse(raw)
		got, err := strictjson.Parse(out)
		if err != nil || !reflect.DeepEqual(normalize(want), normalize(got)) {
			t.Errorf("%s: round trip changed the value:\n in: %s\nout: %s", f, strings.TrimSpace(string(raw)), out)
			continue
		}
		v2, _ := protocol.NewMessage(typ)
		if err := protocol.Unmarshal(out, v2); err != nil {
			t.Errorf("%s: re-decode: %v", f, err)
			continue
		}
		out2, _ := json.Marshal(v2)
		if string(out2) != string(out) {
			t.Errorf("%s: second round trip differs:\n%s\n%s", f, out, out2)
		}
	}
	if checked < 100 {
		t.Errorf("only %d vectors round-tripped", checked)
	}
}

// normalize compares numbers by value (an open object's 1 may come back as 1 or 1.0 text).
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
	case json.Number:
		f, _ := x.Float64()
		return f
	}
	return v
}

func TestRequiredArraysMarshalEmpty(t *testing.T) {
	b, err := json.Marshal(protocol.ContextCollectResult{})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"items":[]}` {
		t.Errorf("got %s", b)
	}
}

func TestUnionDispatchesOnDiscriminator(t *testing.T) {
	var p protocol.ContentPart
	if err := protocol.Unmarshal([]byte(`{"type":"audio","artifact_id":"a","mime_type":"audio/ogg"}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.AudioPart == nil || p.TextPart != nil || p.ImagePart != nil {
		t.Errorf("want the audio variant, got %+v", p)
	}
	b, _ := json.Marshal(protocol.ContentPart{TextPart: &protocol.TextPart{Text: "hi"}})
	if string(b) != `{"type":"text","text":"hi"}` {
		t.Errorf("constant discriminator not filled: %s", b)
	}
}

func TestStrictDecodingRefusesCaseVariants(t *testing.T) {
	var p protocol.ToolCallParams
	err := protocol.Unmarshal([]byte(`{"NAME":"echo","name":"echo","arguments":{}}`), &p)
	if err == nil || !strings.Contains(err.Error(), `unknown field "NAME"`) {
		t.Errorf("want an unknown-field error naming NAME, got %v", err)
	}
}

func TestRegistries(t *testing.T) {
	if protocol.MaxMessageBytes != 1048576 || protocol.MaxInFlight != 64 {
		t.Error("limits")
	}
	if e, ok := protocol.LookupError(protocol.CodeKVConflict); !ok || e.Name != "kv_conflict" || e.DataType != "KVConflictData" {
		t.Errorf("error registry: %+v", e)
	}
	m, ok := protocol.LookupMethod(protocol.MethodToolCall)
	if !ok || m.Result["0.1"] != "ToolResult01" || m.Result["0.4"] != "ToolResult" {
		t.Errorf("method registry: %+v", m)
	}
}
