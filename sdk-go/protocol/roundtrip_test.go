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

// AppendJSON writes the bytes json.Marshal writes, for every valid vector of every object
// type (the host encodes the params it sends with it).
func TestAppendJSONMatchesMarshal(t *testing.T) {
	files, _ := filepath.Glob("../../schema/vectors/*/valid/*.json")
	checked := 0
	for _, f := range files {
		parts := strings.Split(filepath.ToSlash(f), "/")
		v, ok := protocol.NewMessage(parts[len(parts)-3])
		if !ok {
			continue
		}
		a, ok := v.(interface{ AppendJSON([]byte) ([]byte, error) })
		if !ok {
			continue // unions and enums
		}
		raw, _ := os.ReadFile(f)
		if err := protocol.Unmarshal(raw, v); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%s: marshal: %v", f, err)
			continue
		}
		got, err := a.AppendJSON([]byte("prefix"))
		if err != nil || string(got) != "prefix"+string(want) {
			t.Errorf("%s: AppendJSON differs from json.Marshal (%v):\n got: %s\nwant: prefix%s", f, err, got, want)
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("only %d vectors checked", checked)
	}
}

// The fallbacks of AppendJSON: escaped strings, raw JSON with whitespace or HTML
// characters, unset required members, invalid raw JSON.
func TestAppendJSONEdges(t *testing.T) {
	owner := protocol.ResourceOwner{SessionID: "s<1>", ExtensionInstanceID: "i&1", ProcessGeneration: 2}
	p := protocol.ToolCallParams{Name: "é\"\n", Arguments: json.RawMessage(`{ "a" : "<&>\u2028" }`)}
	p.SetResourceOwner(&owner)
	for _, c := range []protocol.ToolCallParams{p, {Name: "x"}, {Name: "y", Arguments: json.RawMessage(`{"a":"<&>"}`)}} {
		want, _ := json.Marshal(c)
		got, err := c.AppendJSON(nil)
		if err != nil || string(got) != string(want) {
			t.Errorf("got %s (%v), want %s", got, err, want)
		}
	}
	if _, err := (&protocol.ToolCallParams{Name: "x", Arguments: json.RawMessage(`{"a":`)}).AppendJSON(nil); err == nil {
		t.Error("AppendJSON accepted invalid raw arguments")
	}
	if b, _ := (&protocol.CommandExecuteParams{Name: "c"}).AppendJSON(nil); string(b) != `{"name":"c","arguments":[]}` {
		t.Errorf("required array: %s", b)
	}
}

// An open object keeps the bytes sent: numbers are not re-encoded (1.0 stays 1.0, so a
// tool's integer schema still sees the fraction), while the value was validated with the
// rest of the document.
func TestOpenObjectsStayRaw(t *testing.T) {
	in := `{"name":"t","arguments":{"n":1.0,"big":123456789012345678901234567890}}`
	var p protocol.ToolCallParams
	if err := protocol.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(p)
	if string(out) != in {
		t.Errorf("round trip changed the open object:\n in: %s\nout: %s", in, out)
	}
	if err := protocol.Unmarshal([]byte(`{"name":"t","arguments":[1]}`), &p); err == nil || !strings.Contains(err.Error(), "$.arguments") {
		t.Errorf("a non-object arguments must be refused at $.arguments, got %v", err)
	}
}

// A union encodes its set variant, const discriminator included, and an owner-bound one
// takes the owner on that variant.
func TestUnionAppendJSONAndOwner(t *testing.T) {
	u := protocol.HookRunParams{HookRunBeforePrompt: &protocol.HookRunBeforePrompt{Payload: protocol.BeforePromptPayload{Prompt: "p"}}}
	u.SetResourceOwner(&protocol.ResourceOwner{SessionID: "s", ExtensionInstanceID: "i", ProcessGeneration: 1})
	got, err := u.AppendJSON(nil)
	want := `{"hook":"before_prompt","payload":{"prompt":"p"},"resource_owner":{"session_id":"s","extension_instance_id":"i","process_generation":1}}`
	if err != nil || string(got) != want {
		t.Errorf("got %s (%v), want %s", got, err, want)
	}
	if _, err := (&protocol.HookRunParams{}).AppendJSON(nil); err == nil {
		t.Error("a union with no variant set encoded")
	}
}
