package services_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/services"
)

type catalogRes struct {
	Revision int64    `json:"revision"`
	Tools    []string `json:"tools"`
}

func tool(name string) map[string]any {
	return map[string]any{"name": name, "description": "d", "parameters": map[string]any{"type": "object"}}
}

func TestCatalogRegisterUnregister(t *testing.T) {
	e := newEnv(t, nil)
	if err := e.r.SeedCatalog(e.c, []services.ToolDefinition{{Name: "boot", Description: "b", Parameters: []byte(`{"type":"object"}`)}}); err != nil {
		t.Fatal(err)
	}
	var res catalogRes
	e.ok("tools/register", map[string]any{"tools": []any{tool("search"), tool("fetch")}}, &res)
	if res.Revision != 1 || strings.Join(res.Tools, ",") != "boot,fetch,search" {
		t.Fatalf("register: %+v", res)
	}
	// Replacing a definition keeps the name and bumps the revision.
	repl := tool("search")
	repl["description"] = "v2"
	e.ok("tools/register", map[string]any{"tools": []any{repl}}, &res)
	if res.Revision != 2 {
		t.Fatalf("revision %d", res.Revision)
	}
	e.ok("tools/unregister", map[string]any{"names": []string{"fetch", "never-registered"}}, &res)
	if res.Revision != 3 || strings.Join(res.Tools, ",") != "boot,search" {
		t.Fatalf("unregister: %+v", res)
	}
	// Pinned revisions resolve to the definitions the model saw.
	if d, ok := e.r.CatalogTool(e.c, 1, "search"); !ok || d.Description != "d" {
		t.Fatalf("revision 1 search: %+v %v", d, ok)
	}
	if d, ok := e.r.CatalogTool(e.c, 2, "search"); !ok || d.Description != "v2" {
		t.Fatalf("revision 2 search: %+v %v", d, ok)
	}
	if _, ok := e.r.CatalogTool(e.c, 3, "fetch"); ok {
		t.Fatal("revision 3 still has fetch")
	}
	if _, ok := e.r.CatalogTool(e.c, 0, "boot"); !ok {
		t.Fatal("revision 0 lost")
	}
	// Only 8 revisions are retained.
	for i := 0; i < 8; i++ {
		e.ok("tools/register", map[string]any{"tools": []any{tool("search")}}, &res)
	}
	if res.Revision != 11 || e.r.HasCatalogRevision(e.c, 3) || !e.r.HasCatalogRevision(e.c, 4) {
		t.Fatalf("retention: revision %d, has 3: %v, has 4: %v", res.Revision, e.r.HasCatalogRevision(e.c, 3), e.r.HasCatalogRevision(e.c, 4))
	}
	rev, tools := e.r.Catalog(e.c)
	if rev != 11 || len(tools) != 2 {
		t.Fatalf("catalog %d %v", rev, tools)
	}
}

func TestCatalogInvalidLeavesCatalogUnchanged(t *testing.T) {
	e := newEnv(t, nil)
	e.ok("tools/register", map[string]any{"tools": []any{tool("keep")}}, nil)
	many := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = tool(fmt.Sprintf("t%d", i))
		}
		return out
	}
	badSchema := tool("bad")
	badSchema["parameters"] = map[string]any{"type": "objekt"}
	refSchema := tool("ref")
	refSchema["parameters"] = map[string]any{"$ref": "file:///etc/passwd"}
	notObject := tool("arr")
	notObject["parameters"] = []int{1}
	longDesc := tool("long")
	longDesc["description"] = strings.Repeat("x", 4097)
	badOut := tool("out")
	badOut["output_schema"] = map[string]any{"minimum": "ten"}
	cases := []struct {
		name   string
		method string
		params any
	}{
		{"empty", "tools/register", map[string]any{"tools": []any{}}},
		{"257 per request", "tools/register", map[string]any{"tools": many(257)}},
		{"bad name", "tools/register", map[string]any{"tools": []any{tool("9lives")}}},
		{"duplicate", "tools/register", map[string]any{"tools": []any{tool("a"), tool("a")}}},
		{"bad schema", "tools/register", map[string]any{"tools": []any{badSchema}}},
		{"external ref", "tools/register", map[string]any{"tools": []any{refSchema}}},
		{"parameters not object", "tools/register", map[string]any{"tools": []any{notObject}}},
		{"long description", "tools/register", map[string]any{"tools": []any{longDesc}}},
		{"bad output schema", "tools/register", map[string]any{"tools": []any{badOut}}},
		{"unknown field", "tools/register", map[string]any{"tools": []any{map[string]any{"name": "x", "description": "", "parameters": map[string]any{}, "handler": "x"}}}},
		{"empty names", "tools/unregister", map[string]any{"names": []string{}}},
		{"bad unregister name", "tools/unregister", map[string]any{"names": []string{"a b"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.fails(tc.method, tc.params, -32602)
			rev, tools := e.r.Catalog(e.c)
			if rev != 1 || len(tools) != 1 {
				t.Fatalf("catalog changed: %d %v", rev, tools)
			}
		})
	}
	// 256 fits; the catalog as a whole is bounded too.
	e.ok("tools/register", map[string]any{"tools": many(255)}, nil)
	e.fails("tools/register", map[string]any{"tools": []any{tool("one_too_many")}}, -32602)
	if rev, tools := e.r.Catalog(e.c); rev != 2 || len(tools) != 256 {
		t.Fatalf("catalog after overflow: %d %d", rev, len(tools))
	}
}

func TestCatalogHookRefusal(t *testing.T) {
	e := newEnv(t, nil)
	var seen []int64
	e.catalog = func(c *services.Caller, rev int64, tools []services.ToolDefinition) error {
		seen = append(seen, rev)
		for _, t := range tools {
			if t.Name == "taken" {
				return errors.New(`tool "taken" is already provided by extension other`)
			}
		}
		return nil
	}
	e.ok("tools/register", map[string]any{"tools": []any{tool("mine")}}, nil)
	err := e.fails("tools/register", map[string]any{"tools": []any{tool("taken")}}, -32602)
	if !strings.Contains(err.Message, "already provided") {
		t.Fatalf("message %q", err.Message)
	}
	var res catalogRes
	e.ok("tools/register", map[string]any{"tools": []any{tool("next")}}, &res)
	if res.Revision != 2 || fmt.Sprint(seen) != "[1 2 2]" {
		t.Fatalf("revision %d, hook saw %v", res.Revision, seen)
	}
	// A new generation starts again at revision 0.
	e.r.GenerationEnded(e.c)
	e.c.Generation = 2
	if rev, _ := e.r.Catalog(e.c); rev != 0 {
		t.Fatalf("new generation at revision %d", rev)
	}
}
