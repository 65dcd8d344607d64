package services_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/services"
)

// tools/replace swaps the whole catalog in exactly one revision, or changes nothing.
func TestCatalogReplaceIsOneRevision(t *testing.T) {
	e := newEnv(t, nil)
	if err := e.r.SeedCatalog(e.c, []services.ToolDefinition{{Name: "boot", Description: "b", Parameters: []byte(`{"type":"object"}`)}}); err != nil {
		t.Fatal(err)
	}
	var res catalogRes
	e.ok("tools/register", map[string]any{"tools": []any{tool("search"), tool("fetch")}}, &res)
	var offered [][]string
	e.catalog = func(c *services.Caller, rev int64, tools []services.ToolDefinition) error {
		var names []string
		for _, t := range tools {
			names = append(names, t.Name)
		}
		offered = append(offered, names)
		if strings.Contains(strings.Join(names, ","), "taken") {
			return errors.New("tool \"taken\" is already provided by extension other")
		}
		return nil
	}
	// A changed list: one request, one revision, the host offered the complete new list once.
	e.ok("tools/replace", map[string]any{"tools": []any{tool("boot"), tool("lookup")}}, &res)
	if res.Revision != 2 || strings.Join(res.Tools, ",") != "boot,lookup" || len(offered) != 1 || strings.Join(offered[0], ",") != "boot,lookup" {
		t.Fatalf("replace: %+v, offered %v", res, offered)
	}
	if _, ok := e.r.CatalogTool(e.c, 1, "fetch"); !ok {
		t.Fatal("revision 1 (pinned by earlier plans) lost fetch")
	}
	// A refusal of any part changes nothing, locally or at the host.
	dup := map[string]any{"tools": []any{tool("a"), tool("a")}}
	badSchema := tool("bad")
	badSchema["parameters"] = map[string]any{"type": "objekt"}
	for name, params := range map[string]any{
		"duplicate":        dup,
		"bad schema":       map[string]any{"tools": []any{tool("fine"), badSchema}},
		"refused by host":  map[string]any{"tools": []any{tool("fine"), tool("taken")}},
		"missing tools":    map[string]any{},
		"not a list":       map[string]any{"tools": "boot"},
		"unknown member":   map[string]any{"tools": []any{}, "names": []string{"boot"}},
		"bad name <x>":     map[string]any{"tools": []any{tool("<x>")}},
		"control char":     map[string]any{"tools": []any{tool("a\u0007")}},
		"over the catalog": map[string]any{"tools": manyTools(257)},
	} {
		t.Run(name, func(t *testing.T) {
			e.fails("tools/replace", params, -32602)
			rev, tools := e.r.Catalog(e.c)
			if rev != 2 || len(tools) != 2 {
				t.Fatalf("catalog changed: %d %v", rev, tools)
			}
		})
	}
	// An empty list empties the catalog, in one revision too.
	e.ok("tools/replace", map[string]any{"tools": []any{}}, &res)
	if res.Revision != 3 || len(res.Tools) != 0 {
		t.Fatalf("empty replace: %+v", res)
	}
}

func manyTools(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = tool("t" + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + string(rune('a'+i/26)))
	}
	return out
}
