package octet_test

import (
	"context"
	"encoding/json"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/octettest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// RequestInput with WithOptions and WithFreeText sends the options in order, with their
// descriptions, and allow_free_text; without them neither member is sent (an older host
// keeps accepting the request); the handler gets the chosen value.
func TestRequestInputOptions(t *testing.T) {
	ext := testExtension(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "choose", Description: "Ask for a branch"},
		func(ctx context.Context, a struct {
			Free bool `json:"free,omitempty"`
			Bare bool `json:"bare,omitempty"`
		}) (octet.Result, error) {
			o := octet.UIRequestInputOptions{Options: []protocol.InputOption{
				{Value: "main", Label: "Main"},
				{Value: "dev", Label: "Dev", Description: ptrTo("unstable")}}}
			if a.Free {
				free := true
				o.AllowFreeText = &free
			}
			if a.Bare {
				o = octet.UIRequestInputOptions{}
			}
			res, err := ext.UI.RequestInput(ctx, "Branch?", o)
			var v *string
			if res.Value.Valid {
				v = &res.Value.Value
			}
			return octet.Text("asked").WithStructured(map[string]any{"answer": v}), err
		})
	m := manifest()
	m["contributes"].(map[string]any)["tools"] = append(m["contributes"].(map[string]any)["tools"].([]string), "choose")
	h := octettest.Start(t, ext, octettest.Options{Manifest: m, Script: octettest.Script{
		Input: func(prompt string, secret bool) *string { v := "dev"; return &v },
	}})
	ctx := context.Background()
	for _, args := range []map[string]any{{}, {"free": true}, {"bare": true}} {
		res, err := h.CallTool(ctx, "choose", args)
		if err != nil || res.IsError {
			t.Fatalf("choose %v: %+v %v", args, res, err)
		}
	}
	sent := h.Received("input/request")
	if len(sent) != 3 {
		t.Fatalf("%d input requests", len(sent))
	}
	params := func(i int) string {
		p := sent[i]["params"].(map[string]any)
		delete(p, "parent_request_id")
		b, _ := json.Marshal(p)
		return string(b)
	}
	const opts = `"options":[{"label":"Main","value":"main"},{"description":"unstable","label":"Dev","value":"dev"}]`
	for i, want := range []string{
		`{` + opts + `,"prompt":"Branch?","secret":false}`,
		`{"allow_free_text":true,` + opts + `,"prompt":"Branch?","secret":false}`,
		`{"prompt":"Branch?","secret":false}`,
	} {
		if got := params(i); got != want {
			t.Errorf("request %d: %s\nwant %s", i, got, want)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
