package services_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// BenchmarkHandleDecode measures the router's per-frame cost of reading params for methods
// whose service does little else (an event to the sink): the strict decode and the checks,
// not SQLite. status/contribution is one small object, context/contribution sixteen items.
func BenchmarkHandleDecode(b *testing.B) {
	items := make([]string, 16)
	for i := range items {
		items[i] = fmt.Sprintf(`{"label":"item %d","content":"some context text of ordinary size","placement":"prompt_prefix"}`, i)
	}
	cases := []struct{ method, params string }{
		{"status/contribution", `{"surface":"status","text":"indexing 42 files","priority":1,"style_role":null}`},
		{"context/contribution", `{"items":[` + strings.Join(items, ",") + `]}`},
	}
	for _, tc := range cases {
		b.Run(tc.method, func(b *testing.B) {
			e := newEnv(b, nil)
			req := &jsonrpc.Request{Method: tc.method, Params: json.RawMessage(tc.params)}
			for b.Loop() {
				if _, err := e.r.Handle(context.Background(), e.c, req); err != nil {
					b.Fatal(err)
				}
			}
			if len(e.eventsOf("diagnostic")) != 0 {
				b.Fatalf("refused: %s", e.lastDiagnostic())
			}
		})
	}
}
