package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestGatewayProgressBeforeResult: on the wire, every progress notification an extension
// sent before its result precedes that result, with no delay in the tool and with several
// extensions behind the gateway. The host handles notifications off its reader, so without
// the gateway's wait the result overtook the last ones. The client reads raw lines: an SDK
// client may run its progress handler asynchronously and would blur what was sent.
func TestGatewayProgressBeforeResult(t *testing.T) {
	g := startRawGateway(t, matrixDirs()...)
	g.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if a := g.next(t); a.Error != nil {
		t.Fatalf("initialize: %+v", a)
	}
	g.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for round := range 12 {
		items := 1 + (round%4)*8
		list := make([]string, items)
		for i := range list {
			list[i] = fmt.Sprintf("i%d", i)
		}
		args, _ := json.Marshal(map[string]any{"items": list, "delay_ms": 0})
		id := 100 + round
		g.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"fetch_many","arguments":%s,"_meta":{"progressToken":"p%d"}}}`, id, args, round))
		seen := 0
		for {
			line, err := g.out.ReadBytes('\n')
			if err != nil {
				t.Fatalf("round %d: the gateway's stdout ended: %v", round, err)
			}
			var m struct {
				ID     *int   `json:"id"`
				Method string `json:"method"`
				Params struct {
					Token string `json:"progressToken"`
				} `json:"params"`
			}
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("not JSON from the gateway: %q", line)
			}
			if m.Method == "notifications/progress" && m.Params.Token == fmt.Sprintf("p%d", round) {
				seen++
			}
			if m.ID != nil && *m.ID == id {
				break
			}
		}
		if seen != items {
			t.Fatalf("round %d: %d of %d progress notifications before the result", round, seen, items)
		}
	}
}
