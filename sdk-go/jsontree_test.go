package octet

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// marshalTree writes what json.Marshal writes, byte for byte, for schema documents
// (derived and hand-written) and for the values around the edges of its direct
// paths: escaped and HTML-sensitive strings, invalid UTF-8, integral and other
// floats, -0, nil maps and slices, and kinds it hands to json.Marshal.
func TestMarshalTreeEqualsJSONMarshal(t *testing.T) {
	type nested struct {
		When  time.Time         `json:"when"`
		Tags  []string          `json:"tags,omitempty"`
		Score float64           `json:"score" jsonschema:"minimum=0,maximum=1"`
		Extra map[string]string `json:"extra,omitempty"`
	}
	type args struct {
		Name  string   `json:"name" jsonschema:"description=Who <to> greet & why \"now\",pattern=^[a-z]+$"`
		Count int      `json:"count,omitempty" jsonschema:"minimum=1,maximum=1000000"`
		Ratio *float64 `json:"ratio"`
		Items []nested `json:"items"`
		Fixed [3]int8  `json:"fixed"`
	}
	derived, err := reflectParameters[args]()
	if err != nil {
		t.Fatal(err)
	}
	docs := []any{
		derived,
		nil, true, false, "", "plain", "quote\" back\\ slash", "<script>&amp;", "tab\tnew\nline\x01", "é😀", "\u2028\u2029",
		"bad \xff utf-8", "del \x7f",
		0.0, math.Copysign(0, -1), 1.0, -1.0, 64.0, 0.5, -2.25, 1e14, 1e15, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, math.MaxFloat64,
		json.Number("12"), json.Number("1e3"), 7, int64(-3), uint8(200), []int{1, 2}, []string(nil), []string{}, []string{"a", "<b>"},
		[]any(nil), []any{}, []any{1.0, "x", nil, []any{map[string]any{}}},
		map[string]any(nil), map[string]any{}, map[string]string{"b": "1", "a": "2"},
		map[string]any{"zeta": 1.0, "alpha": map[string]any{"b": []any{"y", 2.5}, "a": nil}, "Beta": "<", "beta": []string{"q"}, "": true, "é": false},
		map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 0, "maximum": 9007199254740991.0}}, "required": []string{"n"}},
		nested{Score: 0.25, Tags: []string{"x"}},
	}
	for _, d := range docs {
		want, wantErr := json.Marshal(d)
		got, gotErr := marshalTree(d)
		if (wantErr == nil) != (gotErr == nil) || !bytes.Equal(got, want) {
			t.Errorf("%#v:\n marshalTree %s (%v)\n json.Marshal %s (%v)", d, got, gotErr, want, wantErr)
		}
	}
	for _, bad := range []any{math.NaN(), math.Inf(1), map[string]any{"x": []any{math.Inf(-1)}}, map[string]any{"f": func() {}}} {
		if _, err := marshalTree(bad); err == nil {
			t.Errorf("marshalTree(%#v) encoded a value json.Marshal refuses", bad)
		}
	}
	// Random trees of the kinds a schema document holds.
	r := rand.New(rand.NewPCG(17, 2))
	for i := 0; i < 5000; i++ {
		d := randomTree(r, 4)
		want, _ := json.Marshal(d)
		got, err := marshalTree(d)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%#v:\n marshalTree %s (%v)\n json.Marshal %s", d, got, err, want)
		}
	}
}

func randomTree(r *rand.Rand, depth int) any {
	strs := []string{"a", "B", "<", "&x", ">", "\"", "\\", "é", "\n", "\xfe", "type", "Type", "", "\u2028", "\u2029", "\b", "\f", "\r\t",
		"\x00", "\x1f", "\x7f", "😀", "\xe2\x80", "\xed\xa0\x80", "\U0010ffff", "日本"}
	n := r.IntN(9)
	if depth == 0 {
		n = r.IntN(5)
	}
	switch n {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return strs[r.IntN(len(strs))] + strs[r.IntN(len(strs))]
	case 3:
		return []float64{0, 1, -7, 3.5, 1e15, 1e21, 1e-7, float64(r.IntN(1 << 20))}[r.IntN(8)]
	case 4:
		return []string{strs[r.IntN(len(strs))]}
	case 5, 6:
		m := map[string]any{}
		for j := r.IntN(5); j > 0; j-- {
			m[strs[r.IntN(len(strs))]] = randomTree(r, depth-1)
		}
		return m
	default:
		var s []any
		for j := r.IntN(4); j > 0; j-- {
			s = append(s, randomTree(r, depth-1))
		}
		return s
	}
}

// The schema compiled for validation and the one initialize announces are the same
// document: marshalTree and json.Marshal read a derived schema alike (also checked
// above); here the defined tool's announced parameters decode to its document.
func TestAnnouncedParametersAreTheDocument(t *testing.T) {
	type a struct {
		X int    `json:"x" jsonschema:"minimum=0"`
		Y string `json:"y,omitempty"`
	}
	def, err := DefineTool(ToolSpec{Name: "t", Description: "d"}, func(_ context.Context, _ a) (Result, error) { return Text(""), nil })
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(def.definition("0.4").Parameters, &got); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(def.Parameters())
	_ = json.Unmarshal(raw, &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("announced %v, document %v", got, want)
	}
}

// The initialize answer marshalTree writes is json.Marshal's, for a registry with
// every kind of member the answer carries: derived, hand-written (HTML-sensitive
// text, numbers written in Go) and structured tools, commands, hooks, surfaces, a
// context handler, renderers and the protocol block.
func TestInitializeAnswerEqualsJSONMarshal(t *testing.T) {
	e := New(Options{})
	type args struct {
		Q string `json:"q" jsonschema:"description=a <b> & \"c\""`
	}
	type out struct {
		N int `json:"n"`
	}
	Tool(e, ToolSpec{Name: "derived", Description: "Find <things> & more"}, func(context.Context, args) (Result, error) { return Text(""), nil })
	e.RawTool(ToolSpec{Name: "raw", Description: "raw", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 0, "maximum": 1.5e3, "enum": []any{1, 2.0, json.Number("3")}}},
		"required": []string{"n"}, "description": "é \u2028 <x>",
	}}, func(context.Context, json.RawMessage) (Result, error) { return Text(""), nil })
	StructuredTool(e, ToolSpec{Name: "structured", Description: "s"}, func(context.Context, args) (out, error) { return out{}, nil })
	e.Command("cmd", "a <command>", func(context.Context, []string) (CommandResult, error) { return CommandResult{}, nil })
	for _, api := range []string{"0.1", "0.4"} {
		s := &session{apiVersion: api}
		result := map[string]any{"api_version": api, "name": protocol.ExtensionName("x"), "version": "1.0.0"}
		if api != "0.1" {
			result["protocol"] = protocol.ProtocolAnswer{Version: api, Features: []protocol.Feature{"content_parts"}, Limits: protocol.AnsweredLimits{MaxConcurrentRequests: 8}}
		}
		e.contributions(s, result)
		result["hooks"], result["ui"], result["context"], result["tool_renderers"] = []string{"before_prompt"}, []string{"status"}, true, []string{"derived"}
		want, err := json.Marshal(result)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshalTree(result)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("API %s:\n marshalTree  %s (%v)\n json.Marshal %s", api, got, err, want)
		}
	}
}
