package services_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/octet-kit/octet/host"
)

// TestToolCallCarriesCatalogRevision drives a Go SDK extension that replaces and
// removes a dynamic tool: a call planned against an older catalog snapshot reaches
// the handler of that revision (seed 002: calls carry the catalog_revision the model
// saw, even after the tool was replaced or removed), a plain call uses the current
// one, and a snapshot of a generation that crashed is refused rather than sent with a
// revision that now names another catalog.
func TestToolCallCarriesCatalogRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	rh := startReal(t, "dynext", "dynext", "set_versioned", "", "drop_versioned", "crash")
	ctx := context.Background()
	call := func(tool, args string) string {
		t.Helper()
		raw, _, err := rh.h.CallTool(ctx, tool, []byte(args))
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return resultText(t, raw)
	}
	planned := func(entry host.CatalogEntry) (string, error) {
		raw, err := rh.h.CallPlanned(ctx, entry, nil, "")
		if err != nil {
			return "", err
		}
		return resultText(t, raw), nil
	}

	if got := call("set_versioned", `{"text":"one"}`); got != "set one" {
		t.Fatalf("set_versioned: %q", got)
	}
	first, ok := rh.h.Catalog().Lookup("versioned")
	if !ok || first.Revision != 1 || first.Extension != "dynext" {
		t.Fatalf("catalog entry after the first register: %+v, %v", first, ok)
	}
	call("set_versioned", `{"text":"two"}`)
	if got := call("versioned", `{}`); got != "two" {
		t.Fatalf("the current catalog answers %q, want two", got)
	}
	if got, err := planned(first); err != nil || got != "one" {
		t.Fatalf("planned at revision 1: %q, %v; want the handler that revision held", got, err)
	}
	call("drop_versioned", `{}`)
	if _, _, err := rh.h.CallTool(ctx, "versioned", []byte(`{}`)); !errors.As(err, new(*host.UnknownToolError)) {
		t.Fatalf("an unregistered tool resolved in the current catalog: %v", err)
	}
	if got, err := planned(first); err != nil || got != "one" {
		t.Fatalf("planned at revision 1 after removal: %q, %v", got, err)
	}

	// What went over the wire: every call of versioned names the revision it was planned at.
	revs := map[int64]int{}
	for _, f := range rh.frames("dynext") {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Name     string `json:"name"`
				Revision *int64 `json:"catalog_revision"`
			} `json:"params"`
		}
		if json.Unmarshal(f.Frame, &m) != nil || m.Method != "tool/call" {
			continue
		}
		if m.Params.Revision == nil {
			t.Fatalf("a tool/call to an extension with dynamic_tools carried no catalog_revision: %s", f.Frame)
		}
		if m.Params.Name == "versioned" {
			revs[*m.Params.Revision]++
		}
	}
	if revs[1] != 2 || revs[2] != 1 || len(revs) != 2 {
		t.Fatalf("versioned was called at revisions %v; want revision 1 twice and revision 2 once", revs)
	}

	// A crash starts a new generation whose catalog revisions start again at 0.
	if _, _, err := rh.h.CallTool(ctx, "crash", []byte(`{}`)); !errors.Is(err, host.ErrTransport) {
		t.Fatalf("crash: %v", err)
	}
	call("set_versioned", `{"text":"three"}`) // waits for the restarted generation
	_, err := planned(first)
	var stale *host.StaleCatalogError
	if !errors.As(err, &stale) || stale.PlannedGeneration != first.Generation || stale.Current == first.Generation {
		t.Fatalf("a call planned against the crashed generation's catalog: %v; want a StaleCatalogError", err)
	}
	if got := call("versioned", `{}`); got != "three" {
		t.Fatalf("the new generation's versioned answers %q", got)
	}
}

func resultText(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Content) == 0 {
		t.Fatalf("tool result %s: %v", raw, err)
	}
	return res.Content[0].Text
}
