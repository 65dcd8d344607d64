package octet_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

func textTool(t *testing.T, name, text string) *octet.ToolDef {
	t.Helper()
	def, err := octet.DefineTool(octet.ToolSpec{Name: name, Description: "returns " + text},
		func(context.Context, struct{}) (octet.Result, error) { return octet.Text(text), nil })
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// ReplaceTools is one tools/replace: one revision holding exactly the new list.
func TestReplaceToolsIsOneRevision(t *testing.T) {
	ext := octet.New(octet.Options{Logger: octet.NewLogger(io.Discard, slog.LevelInfo)})
	h := octettest.Start(t, ext, octettest.Options{Manifest: map[string]any{"contributes": map[string]any{"tools": []string{}}}})
	ctx := context.Background()
	if _, err := ext.Catalog.Register(ctx, []*octet.ToolDef{textTool(t, "a", "a"), textTool(t, "b", "b")}); err != nil {
		t.Fatal(err)
	}
	up, err := ext.Catalog.Replace(ctx, []*octet.ToolDef{textTool(t, "b", "b2"), textTool(t, "c", "c")})
	if err != nil {
		t.Fatal(err)
	}
	if up.Revision != 2 || strings.Join(slices.Sorted(slices.Values(up.Tools)), ",") != "b,c" || len(h.Received("tools/replace")) != 1 || len(h.Received("tools/unregister")) != 0 {
		t.Fatalf("replace: %+v", up)
	}
	if res, err := h.CallTool(ctx, "b", map[string]any{}); err != nil || res.Text() != "b2" {
		t.Fatalf("b: %+v %v", res, err)
	}
	wireError(t, errOnly(h.CallTool(ctx, "a", map[string]any{})), -32602)
	// Refused locally before anything is sent: nothing changes.
	if _, err := ext.Catalog.Replace(ctx, []*octet.ToolDef{textTool(t, "d", "d"), textTool(t, "d", "d")}); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Fatalf("duplicate: %v", err)
	}
	if n := len(h.Received("tools/replace")); n != 1 {
		t.Fatalf("a refused replacement reached the host (%d requests)", n)
	}
	if up, err := ext.Catalog.Replace(ctx, nil); err != nil || up.Revision != 3 || len(up.Tools) != 0 {
		t.Fatalf("empty: %+v %v", up, err)
	}
}
