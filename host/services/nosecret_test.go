package services_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/redact/redacttest"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// TestNoSecretLeaks drives every path a secret value takes (secret/get,
// secret input/request, a failing secret/get, a presentation that tries to
// carry one) through the Router with a recorder tapping the frames, then
// scans the console log, the errors, the recording and the raw bytes of the
// state database (main file, WAL and shared memory) for the values.
func TestNoSecretLeaks(t *testing.T) {
	// Hostile values (quotes, backslashes, control characters, non-ASCII), scanned for in
	// every real encoder's form.
	values := redacttest.Values(t)
	brokered, typed := values[0], values[len(values)-1]
	enc := redacttest.Encodings(t, []string{brokered, typed})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.toml"), []byte("\"api.token\" = "+redacttest.TOMLString(brokered)+"\n"), 0o600)
	sc, err := script.Parse("s.toml", []byte("secrets_file = \"secrets.toml\"\n[[inputs]]\nmatch = \"Password\"\nvalue = "+redacttest.TOMLString(typed)+"\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	stateDir := t.TempDir()
	st, err := store.Open(context.Background(), stateDir)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	owner := services.Owner{SessionID: "s", ExtensionInstanceID: "i", ProcessGeneration: 1}
	c := &services.Caller{Extension: "demo", Principal: "demo@x", APIVersion: "0.4", InstanceID: "i", Generation: 1,
		Features: map[string]bool{"secrets": true, "kv": true, "request_progress": true}, Secrets: []string{"api.token", "absent.token"},
		Presentation: true, Notifications: true,
		ActiveParent: func(id jsonrpc.ID) (services.Owner, bool) { return owner, id == jsonrpc.IntID(1) }}
	// One redactor for the router and the recorder, as the reference host wires them.
	red := redact.New()
	r, err := services.NewRouter(services.RouterConfig{Store: st, Script: sc, Redactor: red, Events: services.EventSinkFunc(func(e services.Event) {
		b, _ := json.Marshal(e)
		log.Write(append(b, '\n'))
	})})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := recording.New(context.Background(), st, "sess", "demo", recording.Options{Redactor: red})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	exchange := func(method string, params string) {
		n++
		id := jsonrpc.StringID(fmt.Sprintf("go:%d", n))
		req := &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}
		reqFrame, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": req.Params})
		rec.OnFrame(jsonrpc.Inbound, reqFrame)
		res, err := r.Handle(context.Background(), c, req)
		var resFrame []byte
		if err != nil {
			log.WriteString("error: " + err.Error() + "\n")
			resFrame, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": err})
		} else {
			resFrame, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": res})
		}
		rec.OnFrame(jsonrpc.Outbound, resFrame)
	}
	exchange("secret/get", `{"parent_request_id":1,"name":"api.token"}`)
	exchange("secret/get", `{"parent_request_id":1,"name":"absent.token"}`)
	exchange("secret/get", `{"parent_request_id":2,"name":"api.token"}`)
	exchange("input/request", `{"parent_request_id":1,"prompt":"Password:","secret":true}`)
	exchange("kv.commit", `{"preconditions":[],"writes":[{"op":"put","namespace":"demo","key":"k","value":"ordinary"}]}`)
	r.Handle(context.Background(), c, &jsonrpc.Request{Method: "notification", Params: json.RawMessage(`{"message":"bad","level":"nope"}`)})
	// A careless extension echoes the secret into a notification and into
	// an invalid one (whose diagnostic quotes the bad level).
	quoted, _ := json.Marshal(brokered)
	r.Handle(context.Background(), c, &jsonrpc.Request{Method: "notification", Params: json.RawMessage(`{"message":"token is ` + string(quoted[1:len(quoted)-1]) + `","level":"info"}`)})
	r.Handle(context.Background(), c, &jsonrpc.Request{Method: "notification", Params: json.RawMessage(`{"message":"x","level":` + string(quoted) + `}`)})

	// The exchange really delivered the values (so the scan below means something).
	frames, _, _ := st.Frames(context.Background(), "sess")
	if len(frames) != 10 || !bytes.Contains(frames[1].Frame, []byte(recording.Redacted)) {
		t.Fatalf("recorded %d frames; secret reply %s", len(frames), frames[1].Frame)
	}
	st.Close() // flush nothing away: the WAL stays on disk and is scanned too

	haystacks := map[string][]byte{"console log and errors": log.Bytes()}
	for _, f := range frames {
		haystacks["recording"] = append(haystacks["recording"], f.Frame...)
	}
	entries, _ := os.ReadDir(stateDir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), store.DatabaseFile) {
			b, err := os.ReadFile(filepath.Join(stateDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			haystacks[e.Name()] = b
		}
	}
	if len(haystacks) < 3 {
		t.Fatalf("scanned only %v", haystacks)
	}
	for where, hay := range haystacks {
		for _, f := range redacttest.Scan(where, hay, enc) {
			t.Errorf("%s contains secret %q (as %s)", f.Where, f.Value, f.Writer)
		}
	}
	// Sanity: the scan would find an ordinary value that was stored.
	found := false
	for where, hay := range haystacks {
		if strings.HasPrefix(where, store.DatabaseFile) && bytes.Contains(hay, []byte("ordinary")) {
			found = true
		}
	}
	if !found {
		t.Fatal("the database scan does not see stored values; the leak check proves nothing")
	}
}
