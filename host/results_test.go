package host_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// checkedHost starts fakeext with the tools whose results the host must refuse, recording
// what OnRejected saw and every tool/call frame sent.
type checkedHost struct {
	h        *host.Host
	mu       sync.Mutex
	rejected []error
	sent     [][]byte
}

func startChecked(t *testing.T, api string) *checkedHost {
	t.Helper()
	base := t.TempDir()
	dir := testext.Write(t, filepath.Join(base, "exts"), testext.Ext{Name: "judged", API: api,
		Tools: []string{"echo", "strict", "bad_field", "bad_structured", "foreign_image"},
		Extra: "commands = [\"good\", \"bad\"]\n"})
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	c := &checkedHost{}
	c.h = host.New(host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, TermGrace: 300 * time.Millisecond,
		OnRejected: func(_ string, _ int64, err error) { c.mu.Lock(); c.rejected = append(c.rejected, err); c.mu.Unlock() },
		OnFrame: func(_ string, _ int64, dir jsonrpc.Direction, frame []byte) {
			if dir == jsonrpc.Outbound && bytes.Contains(frame, []byte(`"tool/call"`)) {
				c.mu.Lock()
				c.sent = append(c.sent, append([]byte(nil), frame...))
				c.mu.Unlock()
			}
		}})
	if _, err := c.h.Start(t.Context(), res.Entries, []string{"judged"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.h.Shutdown)
	return c
}

func (c *checkedHost) rejections() []error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]error(nil), c.rejected...)
}

func TestHostRefusesResultsThatBreakTheSchema(t *testing.T) {
	c := startChecked(t, "0.4")
	cases := []struct {
		tool, schema, pointer, rule, inMessage string
	}{
		{"bad_field", "ToolResult", "", "additionalProperties", `unknown field "colour"`},
		{"bad_structured", "output_schema", "/structured_content/count", "type", "want integer"},
		{"foreign_image", "artifact_fence", "/content/1/artifact_id", "artifact_unresolvable", "no artifact service"},
	}
	for i, tc := range cases {
		out, _, err := c.h.CallTool(t.Context(), tc.tool, nil)
		var re *host.ResultError
		if !errors.As(err, &re) {
			t.Fatalf("%s: want a *ResultError, got %v (result %s)", tc.tool, err, out)
		}
		if out != nil {
			t.Errorf("%s: the refused result was passed on: %s", tc.tool, out)
		}
		if re.Extension != "judged" || re.Method != "tool/call" || re.Name != tc.tool || re.Schema != tc.schema || re.Pointer != tc.pointer || re.Rule != tc.rule {
			t.Errorf("%s: got %+v", tc.tool, *re)
		}
		for _, want := range []string{"judged", tc.tool, tc.inMessage} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: message %q does not name %q", tc.tool, err, want)
			}
		}
		if got := c.rejections(); len(got) != i+1 || got[i] != err {
			t.Errorf("%s: OnRejected saw %v", tc.tool, got)
		}
	}
	if _, _, err := c.h.CallTool(t.Context(), "echo", []byte(`{"a":1}`)); err != nil {
		t.Fatalf("a valid result was refused: %v", err)
	}
}

func TestHostRefusesArgumentsItsCatalogForbidsBeforeSending(t *testing.T) {
	c := startChecked(t, "0.4")
	for _, tc := range []struct{ args, pointer, keyword string }{
		{`{"n":"x"}`, "/n", "type"},
		{`{"n":1,"m":2}`, "", "additionalProperties"},
		{`{}`, "", "required"},
	} {
		_, _, err := c.h.CallTool(t.Context(), "strict", []byte(tc.args))
		var ae *host.ArgumentsError
		if !errors.As(err, &ae) || ae.Tool != "strict" || ae.Pointer != tc.pointer || ae.Keyword != tc.keyword {
			t.Fatalf("%s: want an ArgumentsError at %q (%s), got %v", tc.args, tc.pointer, tc.keyword, err)
		}
	}
	// {"type":"object"} (echo) admits any object without a parse, and still nothing else.
	var ae *host.ArgumentsError
	if _, _, err := c.h.CallTool(t.Context(), "echo", []byte(`[1]`)); !errors.As(err, &ae) || ae.Keyword != "type" {
		t.Fatalf("echo with an array: want a type refusal, got %v", err)
	}
	out, _, err := c.h.CallTool(t.Context(), "strict", []byte(`{"n":1}`))
	if err != nil || !strings.Contains(string(out), `{\"n\":1}`) {
		t.Fatalf("valid arguments: %s, %v", out, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.sent) != 1 {
		t.Fatalf("the extension saw %d tool/call frames, want only the valid one: %s", len(c.sent), c.sent)
	}
}

func TestHostRefusesTypedResultsThatBreakTheSchema(t *testing.T) {
	c := startChecked(t, "0.4")
	e := c.h.Extension("judged")
	if out, err := e.ExecuteCommand(t.Context(), "good", nil); err != nil || !strings.Contains(string(out), "ran good") {
		t.Fatalf("good command: %s %v", out, err)
	}
	_, err := e.ExecuteCommand(t.Context(), "bad", nil)
	var re *host.ResultError
	if !errors.As(err, &re) || re.Method != "command/execute" || re.Name != "bad" || re.Schema != "CommandExecuteResult" || re.Rule != "additionalProperties" {
		t.Fatalf("want a CommandExecuteResult refusal, got %v", err)
	}
}

func TestHostJudgesAPI01ResultsByTheirOwnType(t *testing.T) {
	c := startChecked(t, "0.1")
	if _, _, err := c.h.CallTool(t.Context(), "echo", []byte(`{"a":1}`)); err != nil {
		t.Fatalf("a valid 0.1 result was refused: %v", err)
	}
	_, _, err := c.h.CallTool(t.Context(), "bad_field", nil)
	var re *host.ResultError
	if !errors.As(err, &re) || re.Schema != "ToolResult01" {
		t.Fatalf("want a ToolResult01 refusal, got %v", err)
	}
}

// JudgeSchema reports the fault the contract selects: shallower first, then keyword rank.
func TestJudgeSchemaSelectsTheContractsFault(t *testing.T) {
	schema := []byte(`{"type":"object","$defs":{"tag":{"type":"string","minLength":1}},
		"properties":{"tags":{"type":"array","items":{"$ref":"#/$defs/tag"},"uniqueItems":true},
			"step":{"type":"number","multipleOf":0.5},"card":{"type":"string"},"billing":{"type":"string"}},
		"dependentSchemas":{"card":{"required":["billing"]}},"unevaluatedProperties":false}`)
	for _, tc := range []struct{ in, pointer, keyword string }{
		{`{}`, "", ""},
		{`{"tags":["a","b"],"step":1.5,"card":"x","billing":"y"}`, "", ""},
		{`{"tags":["a","a"]}`, "/tags", "uniqueItems"},
		{`{"step":0.3}`, "/step", "multipleOf"},
		{`{"card":"x"}`, "", "required"},
		{`{"extra":1}`, "", "unevaluatedProperties"},
		{`{"tags":[""]}`, "/tags/0", "minLength"},
		{`{"card":"x","extra":1}`, "", "required"},
		{`{"tags":"a","extra":1}`, "", "unevaluatedProperties"},
	} {
		f, err := host.JudgeSchema(schema, []byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if tc.keyword == "" {
			if f != nil {
				t.Errorf("%s: want valid, got %+v", tc.in, *f)
			}
			continue
		}
		if f == nil || f.Pointer != tc.pointer || f.Keyword != tc.keyword {
			t.Errorf("%s: want %q %s, got %+v", tc.in, tc.pointer, tc.keyword, f)
		}
	}
}

// A tool schema the host cannot compile refuses the catalog: the extension does not start,
// and the error names the tool and the schema.
func TestHostRefusesACatalogItCannotCompile(t *testing.T) {
	base := t.TempDir()
	dir := testext.Write(t, filepath.Join(base, "exts"), testext.Ext{Name: "badschema", Tools: []string{"echo", "bad_schema"}})
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	h := host.New(host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, TermGrace: 300 * time.Millisecond})
	defer h.Shutdown()
	_, err := h.Start(t.Context(), res.Entries, []string{"badschema"})
	if err == nil || !strings.Contains(err.Error(), `tool "bad_schema" parameters schema`) || !strings.Contains(err.Error(), "/properties/x/pattern") {
		t.Fatalf("want a refusal naming the tool and the keyword, got %v", err)
	}
	if _, ok := h.Catalog().Lookup("echo"); ok {
		t.Fatal("a refused catalog was published")
	}
}
