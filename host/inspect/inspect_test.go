package inspect_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/inspect"
	"github.com/octet-kit/octet/host/store"
)

func TestListingsAndUnpairedResponses(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	var buf bytes.Buffer
	if err := inspect.WriteSessions(&buf, nil, false); err != nil || !strings.Contains(buf.String(), "no recorded sessions") {
		t.Fatalf("empty listing %q %v", buf.String(), err)
	}
	st.StartRecording(ctx, "old", "a", 1000)
	st.StartRecording(ctx, "new", "b", 2000)
	st.AppendFrames(ctx, "new", []store.Frame{
		{Seq: 1, AtMS: 2000, Direction: "ext->host", Frame: []byte(`{"jsonrpc":"2.0","id":5,"result":{}}`)},
		{Seq: 2, AtMS: 2001, Direction: "host->ext", Frame: []byte(`{"jsonrpc":"2.0","id":5,"method":"tool/call","params":{}}`)},
		{Seq: 3, AtMS: 2010, Direction: "ext->host", Frame: []byte(`{"jsonrpc":"2.0","id":5,"result":{}}`)},
	})
	sessions, err := inspect.Sessions(ctx, st)
	if err != nil || len(sessions) != 2 || sessions[0].SessionID != "new" || sessions[0].Frames != 3 {
		t.Fatalf("sessions %+v %v", sessions, err)
	}
	buf.Reset()
	inspect.WriteSessions(&buf, sessions, true)
	var decoded []inspect.Session
	if err := json.Unmarshal(buf.Bytes(), &decoded); err != nil || len(decoded) != 2 {
		t.Fatalf("json listing %s: %v", buf.String(), err)
	}
	entries, err := inspect.Exchange(ctx, st, "new")
	if err != nil {
		t.Fatal(err)
	}
	// A response with no request before it stays unpaired; the later one pairs.
	if entries[0].DurationMS != nil || entries[2].DurationMS == nil || *entries[2].DurationMS != 9 || entries[2].Method != "tool/call" {
		t.Fatalf("entries %+v", entries)
	}
	buf.Reset()
	inspect.WriteExchange(&buf, entries, false, true)
	if !strings.Contains(buf.String(), `"method":"tool/call"`) {
		t.Fatalf("verbose view lacks frames:\n%s", buf.String())
	}
	empty, err := inspect.Exchange(ctx, st, "old")
	if err != nil || len(empty) != 0 {
		t.Fatalf("empty session: %v %v", empty, err)
	}
}
