package recording_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/inspect"
	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

type tick struct{ t time.Time }

func (c *tick) now() time.Time { c.t = c.t.Add(5 * time.Millisecond); return c.t }

func TestRecordRedactAndInspect(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clk := &tick{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	// The host registers each value as it hands it out: the broker value, the
	// secret input answer, and one an extension then echoes escaped.
	red := redact.New()
	red.Add("s3cr3t\"v", "tok-AAAA", "hunter2")
	rec, err := recording.New(context.Background(), st, "sess-a", "demo", recording.Options{Clock: clk.now, Redactor: red})
	if err != nil {
		t.Fatal(err)
	}
	frames := []struct {
		dir   jsonrpc.Direction
		frame string
	}{
		{jsonrpc.Outbound, `{"jsonrpc":"2.0","id":1,"method":"tool/call","params":{"name":"echo","arguments":{}}}`},
		{jsonrpc.Inbound, `{"jsonrpc":"2.0","id":"go:1","method":"secret/get","params":{"parent_request_id":1,"name":"api.token"}}`},
		{jsonrpc.Outbound, `{"jsonrpc":"2.0","id":"go:1","result":{"value":"tok-AAAA"}}`},
		{jsonrpc.Inbound, `{"jsonrpc":"2.0","id":"go:2","method":"input/request","params":{"parent_request_id":1,"prompt":"pw","secret":true}}`},
		{jsonrpc.Outbound, `{"jsonrpc":"2.0","id":"go:2","result":{"value":"hunter2"}}`},
		{jsonrpc.Inbound, `{"jsonrpc":"2.0","id":"go:3","method":"input/request","params":{"parent_request_id":1,"prompt":"name","secret":false}}`},
		{jsonrpc.Outbound, `{"jsonrpc":"2.0","id":"go:3","result":{"value":"Ada"}}`},
		// An id that went the other way is not confused with go:1's secret reply.
		{jsonrpc.Inbound, `{"jsonrpc":"2.0","id":"go:1","result":{"value":"not-a-secret"}}`},
		{jsonrpc.Inbound, `{"jsonrpc":"2.0","method":"notification","params":{"message":"leaking s3cr3t\"v here","level":"info"}}`},
		{jsonrpc.Inbound, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad arguments"}}`},
		{jsonrpc.Inbound, `not json at all`},
	}
	for _, f := range frames {
		rec.OnFrame(f.dir, []byte(f.frame+"\n"))
	}
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	got, found, err := st.Frames(context.Background(), "sess-a")
	if err != nil || !found || len(got) != len(frames) {
		t.Fatalf("%d frames, found %v, %v", len(got), found, err)
	}
	all := ""
	for _, f := range got {
		all += string(f.Frame) + "\n"
	}
	for _, leak := range []string{"tok-AAAA", "hunter2", `s3cr3t\"v`} {
		if strings.Contains(all, leak) {
			t.Errorf("recording contains %q", leak)
		}
	}
	for _, keep := range []string{"Ada", "not-a-secret", "not json at all", `"name":"api.token"`} {
		if !strings.Contains(all, keep) {
			t.Errorf("recording lost %q", keep)
		}
	}
	if got[0].Direction != recording.HostToExt || got[1].Direction != recording.ExtToHost {
		t.Errorf("directions %s %s", got[0].Direction, got[1].Direction)
	}

	sessions, err := inspect.Sessions(context.Background(), st)
	if err != nil || len(sessions) != 1 || sessions[0].Frames != int64(len(frames)) || sessions[0].Extension != "demo" {
		t.Fatalf("sessions %+v %v", sessions, err)
	}
	entries, err := inspect.Exchange(context.Background(), st, "sess-a")
	if err != nil {
		t.Fatal(err)
	}
	// tool/call (seq 1) is answered by the error at seq 10: 9 ticks of 5 ms.
	e := entries[9]
	if e.Kind != "error" || e.Method != "tool/call" || e.DurationMS == nil || *e.DurationMS != 45 || e.Error.Code != -32602 {
		t.Fatalf("entry %+v", e)
	}
	if entries[2].Method != "secret/get" || *entries[2].DurationMS != 5 || entries[7].Method != "" {
		t.Fatalf("pairing: %+v / %+v", entries[2], entries[7])
	}
	if entries[8].Kind != "notification" || entries[10].Kind != "invalid" {
		t.Fatalf("kinds %s %s", entries[8].Kind, entries[10].Kind)
	}
	var text, js bytes.Buffer
	inspect.WriteExchange(&text, entries, false, false)
	inspect.WriteExchange(&js, entries, true, false)
	if !strings.Contains(text.String(), "45ms") || !strings.Contains(text.String(), "-32602 bad arguments") || !strings.Contains(text.String(), "ext->host") {
		t.Fatalf("text view:\n%s", text.String())
	}
	// --json is one Entry per line.
	jl := strings.Split(strings.TrimSuffix(js.String(), "\n"), "\n")
	var tenth inspect.Entry
	if len(jl) != len(entries) || json.Unmarshal([]byte(jl[9]), &tenth) != nil || tenth.DurationMS == nil || *tenth.DurationMS != 45 {
		t.Fatalf("json lines view (%d lines for %d entries):\n%s", len(jl), len(entries), js.String())
	}
	var list bytes.Buffer
	inspect.WriteSessions(&list, sessions, false)
	if !strings.Contains(list.String(), "sess-a") {
		t.Fatalf("listing %s", list.String())
	}
	if _, err := inspect.Exchange(context.Background(), st, "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("unknown session: %v", err)
	}
}
