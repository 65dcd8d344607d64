package octet_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

// errorVector is one file of schema/error-vectors (see its README).
type errorVector struct {
	Situation string `json:"situation"`
	Tool      struct {
		Name         string         `json:"name"`
		Parameters   map[string]any `json:"parameters"`
		OutputSchema map[string]any `json:"output_schema"`
	} `json:"tool"`
	Handler struct {
		Returns *struct {
			Content           []octet.Content `json:"content"`
			StructuredContent any             `json:"structured_content"`
		} `json:"returns"`
		Raises map[string]struct {
			Exception string `json:"exception"`
			Message   string `json:"message"`
		} `json:"raises"`
	} `json:"handler"`
	Call struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	} `json:"call"`
	Error           json.RawMessage            `json:"error"`
	ErrorByLanguage map[string]json.RawMessage `json:"error_by_language"`
	Pending         map[string]string          `json:"pending"`
}

// TestErrorVectors answers every vector's call and compares the whole error object.
func TestErrorVectors(t *testing.T) {
	files, _ := filepath.Glob("../schema/error-vectors/*.json")
	if len(files) < 3 {
		t.Fatalf("schema/error-vectors not found (%d files)", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var v errorVector
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatal(err)
			}
			ext := octet.New(octet.Options{})
			octet.Tool(ext, octet.ToolSpec{Name: v.Tool.Name, Description: "vector", Parameters: v.Tool.Parameters, OutputSchema: v.Tool.OutputSchema},
				func(ctx context.Context, _ map[string]any) (octet.Result, error) {
					if r, ok := v.Handler.Raises["go"]; ok {
						if r.Exception == "panic" {
							panic(r.Message)
						}
						return octet.Result{}, errors.New(r.Message)
					}
					return octet.Result{Content: v.Handler.Returns.Content, StructuredContent: v.Handler.Returns.StructuredContent}, nil
				})
			h := octettest.Start(t, ext, octettest.Options{Manifest: map[string]any{"name": "vectors", "version": "1.0.0", "api_version": "0.4",
				"entrypoint": map[string]any{"command": "run"}, "contributes": map[string]any{"tools": []string{v.Tool.Name}}}})
			err = errOnly(h.CallTool(context.Background(), v.Call.Name, v.Call.Arguments))
			var we *jsonrpc.Error
			if !errors.As(err, &we) {
				t.Fatalf("want an error answer, got %v", err)
			}
			got, _ := json.Marshal(map[string]any{"code": we.Code, "message": we.Message, "data": json.RawMessage(we.Data)})
			want := v.Error
			if v.ErrorByLanguage != nil {
				want = v.ErrorByLanguage["go"]
			}
			compareErrorVector(t, got, want, v.Pending["go"])
		})
	}
}

// compareErrorVector compares exactly, or for a pending language the parts that do not
// depend on the validator's wording, failing once the whole object matches.
func compareErrorVector(t *testing.T, gotRaw, wantRaw []byte, pending string) {
	t.Helper()
	var got, want struct {
		Code    int64          `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}
	_ = json.Unmarshal(gotRaw, &got)
	if err := json.Unmarshal(wantRaw, &want); err != nil {
		t.Fatal(err)
	}
	same := reflect.DeepEqual(got, want)
	if pending == "" {
		if !same {
			t.Fatalf("error object\n got %s\nwant %s", gotRaw, wantRaw)
		}
		return
	}
	if same {
		t.Fatalf("pending (%s) but the whole object matches now: remove go from the vector's pending", pending)
	}
	prefix := want.Message[:strings.Index(want.Message, want.Data["pointer"].(string))+len(want.Data["pointer"].(string))+2]
	if got.Code != want.Code || got.Data["tool"] != want.Data["tool"] || got.Data["pointer"] != want.Data["pointer"] || !strings.HasPrefix(got.Message, prefix) {
		t.Fatalf("error object (pending %s: code, data.tool, data.pointer and %q must match)\n got %s\nwant %s", pending, prefix, gotRaw, wantRaw)
	}
}
