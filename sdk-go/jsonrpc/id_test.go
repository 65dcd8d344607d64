package jsonrpc_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

func TestIDJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want jsonrpc.ID
	}{
		{`0`, jsonrpc.IntID(0)},
		{`9007199254740991`, jsonrpc.IntID(1<<53 - 1)},
		{`"go:1"`, jsonrpc.StringID("go:1")},
		{`"` + strings.Repeat("é", 128) + `"`, jsonrpc.StringID(strings.Repeat("é", 128))},
	} {
		var id jsonrpc.ID
		if err := json.Unmarshal([]byte(tc.in), &id); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if id != tc.want || id.IsZero() {
			t.Fatalf("%s decoded to %v", tc.in, id)
		}
		out, err := json.Marshal(id)
		if err != nil || string(out) != tc.in {
			t.Fatalf("%s re-encoded to %s (%v)", tc.in, out, err)
		}
	}
	for _, bad := range []string{`-1`, `1.0`, `1e3`, `01`, `9007199254740992`, `""`, `null`, `true`, `{}`,
		`"` + strings.Repeat("a", 257) + `"`} {
		var id jsonrpc.ID
		if err := json.Unmarshal([]byte(bad), &id); err == nil {
			t.Errorf("%s was accepted as an id (%v)", bad, id)
		}
	}
	if _, err := json.Marshal(jsonrpc.IntID(-1)); err == nil {
		t.Error("a negative id was encoded")
	}
	if out, _ := json.Marshal(jsonrpc.ID{}); string(out) != "null" {
		t.Errorf("zero id = %s", out)
	}
	if jsonrpc.IntID(7).String() != "7" || jsonrpc.StringID("go:7").String() != "go:7" || jsonrpc.IntID(7) == jsonrpc.StringID("7") {
		t.Error("String or comparison is wrong")
	}
}
