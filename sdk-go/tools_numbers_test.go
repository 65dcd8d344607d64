package octet_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/octet-kit/octet/sdk-go/octettest"
)

// An integral count written 7.0 (or 7e0) is an integer to the tool's schema (draft
// 2020-12) and reaches the handler's int field as 7; 7.5 is still refused with the
// contract's type fault.
var _ = behaviour("IntegralNumbersReachIntFields", func(t *testing.T, h *octettest.Host) {
	ctx := context.Background()
	for _, args := range []string{`{"count":7.0,"label":"x"}`, `{"count":7e0,"label":"x"}`, `{"count":70E-1,"label":"x"}`} {
		res, err := h.CallTool(ctx, "typed", json.RawMessage(args))
		if err != nil || res.Text() != "x:7" || res.StructuredContent["count"] != 7.0 {
			t.Fatalf("%s: typed = %+v %v", args, res, err)
		}
	}
	we := wireError(t, errOnly(h.CallTool(ctx, "typed", json.RawMessage(`{"count":7.5,"label":"x"}`))), -32602)
	if we.Message != "invalid arguments: /count: want type integer, got number" {
		t.Fatalf("7.5: %v", we)
	}
})
