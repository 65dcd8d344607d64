package services_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/services"
)

func snapshotJSON(rev int, extra string) string {
	return fmt.Sprintf(`{"snapshot":{"revision":%d,"status":{"state":"active","label":"ready"},"activities":[],"actions":[]%s}}`, rev, extra)
}

func TestPresentationValid(t *testing.T) {
	e := newEnv(t, nil)
	full := `{"parent_request_id":7,"snapshot":{"revision":0,
	  "status":{"state":"running","label":"Indexing","detail":"3 of 5"},
	  "activities":[{"id":"a1","label":"crawl","state":"running","reference":{"type":"url","url":"https://example.com/x?q=1"},
	     "metrics":{"input_tokens":10,"output_tokens":5,"reasoning_tokens":5,"cost_microdollars":3},"started_at_ms":1}],
	  "collection":{"kind":"tree","nodes":[{"id":"root","label":"r"},{"id":"c","parent":"root","label":"c","state":"succeeded",
	     "reference":{"type":"session","session":"agent-session:1"}}],"selected":"c","detail":{"title":"T","text":"line\nline"}},
	  "actions":[{"id":"stop","label":"Stop","command":"stop","arguments":["now"],"destructive":true}]}}`
	e.notify("presentation/update", full)
	ev := e.eventsOf(services.EventPresentation)
	if len(ev) != 1 {
		t.Fatalf("valid snapshot not emitted; diagnostic %q", e.lastDiagnostic())
	}
	u := ev[0].Payload.(services.PresentationUpdate)
	if u.Owner == nil || u.Owner.SessionID != "sess-1" || u.Revision != 0 {
		t.Fatalf("update %+v", u)
	}
	// Process-scoped (no owner) and echoed resource_owner.
	e.notify("presentation/update", snapshotJSON(1, ""))
	e.notify("presentation/update", `{"resource_owner":{"session_id":"sess-1","extension_instance_id":"inst-1","process_generation":1},`+snapshotJSON(2, "")[1:])
	ev = e.eventsOf(services.EventPresentation)
	if len(ev) != 3 || ev[1].Payload.(services.PresentationUpdate).Owner != nil || ev[2].Payload.(services.PresentationUpdate).Owner == nil {
		t.Fatalf("events %d; diagnostic %q", len(ev), e.lastDiagnostic())
	}
}

func TestPresentationInvalid(t *testing.T) {
	deep := `{"id":"n0","label":"x"}`
	for i := 1; i < 17; i++ {
		deep += fmt.Sprintf(`,{"id":"n%d","parent":"n%d","label":"x"}`, i, i-1)
	}
	many := func(n int, item string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(item, i)
		}
		return strings.Join(parts, ",")
	}
	cases := []struct{ name, params, want string }{
		{"both owners", `{"parent_request_id":7,"resource_owner":{"session_id":"s","extension_instance_id":"inst-1","process_generation":1},"snapshot":{"revision":1,"activities":[],"actions":[]}}`, "mutually exclusive"},
		{"inactive parent", `{"parent_request_id":99,"snapshot":{"revision":1,"activities":[],"actions":[]}}`, "not an active"},
		{"foreign owner", `{"resource_owner":{"session_id":"s","extension_instance_id":"inst-2","process_generation":1},"snapshot":{"revision":1,"activities":[],"actions":[]}}`, "not issued"},
		{"stale generation owner", `{"resource_owner":{"session_id":"s","extension_instance_id":"inst-1","process_generation":0},"snapshot":{"revision":1,"activities":[],"actions":[]}}`, "not issued"},
		{"negative revision", `{"snapshot":{"revision":-1,"activities":[],"actions":[]}}`, "revision"},
		{"bad state", `{"snapshot":{"revision":1,"status":{"state":"happy","label":"x"},"activities":[],"actions":[]}}`, "state"},
		{"long label", `{"snapshot":{"revision":1,"status":{"state":"active","label":"` + strings.Repeat("x", 129) + `"},"activities":[],"actions":[]}}`, "129 characters"},
		{"ansi label", `{"snapshot":{"revision":1,"status":{"state":"active","label":"\u001b[1m"},"activities":[],"actions":[]}}`, "control"},
		{"missing activities", `{"snapshot":{"revision":1,"actions":[]}}`, "activities"},
		{"unknown field", `{"snapshot":{"revision":1,"activities":[],"actions":[],"html":"<b>"}}`, "html"},
		{"too many activities", `{"snapshot":{"revision":1,"activities":[` + many(129, `{"id":"a%d","label":"x","state":"active"}`) + `],"actions":[]}}`, "129 entries"},
		{"duplicate activity", `{"snapshot":{"revision":1,"activities":[{"id":"a","label":"x","state":"active"},{"id":"a","label":"x","state":"active"}],"actions":[]}}`, "twice"},
		{"bad id", `{"snapshot":{"revision":1,"activities":[{"id":"a b","label":"x","state":"active"}],"actions":[]}}`, "must match"},
		{"reasoning above output", `{"snapshot":{"revision":1,"activities":[{"id":"a","label":"x","state":"active","metrics":{"output_tokens":1,"reasoning_tokens":2}}],"actions":[]}}`, "reasoning"},
		{"too many nodes", `{"snapshot":{"revision":1,"activities":[],"collection":{"kind":"list","nodes":[` + many(257, `{"id":"n%d","label":"x"}`) + `]},"actions":[]}}`, "257 entries"},
		{"too deep", `{"snapshot":{"revision":1,"activities":[],"collection":{"kind":"tree","nodes":[` + deep + `]},"actions":[]}}`, "deeper"},
		{"cycle", `{"snapshot":{"revision":1,"activities":[],"collection":{"kind":"tree","nodes":[{"id":"a","parent":"b","label":"x"},{"id":"b","parent":"a","label":"x"}]},"actions":[]}}`, "deeper"},
		{"missing parent", `{"snapshot":{"revision":1,"activities":[],"collection":{"kind":"tree","nodes":[{"id":"a","parent":"zz","label":"x"}]},"actions":[]}}`, "not a node"},
		{"parent in list", `{"snapshot":{"revision":1,"activities":[],"collection":{"kind":"list","nodes":[{"id":"a","label":"x"},{"id":"b","parent":"a","label":"x"}]},"actions":[]}}`, "list nodes"},
		{"bad selected", `{"snapshot":{"revision":1,"activities":[],"collection":{"kind":"list","nodes":[],"selected":"x"},"actions":[]}}`, "selected"},
		{"detail too big", `{"snapshot":{"revision":1,"activities":[],"collection":{"kind":"list","nodes":[],"detail":{"text":"` + strings.Repeat("x", 65537) + `"}},"actions":[]}}`, "65537 bytes"},
		{"undeclared command", `{"snapshot":{"revision":1,"activities":[],"actions":[{"id":"x","label":"X","command":"rm"}]}}`, "not a command"},
		{"too many actions", `{"snapshot":{"revision":1,"activities":[],"actions":[` + many(65, `{"id":"a%d","label":"x","command":"open"}`) + `]}}`, "65 entries"},
		{"reference wrong field", `{"snapshot":{"revision":1,"activities":[{"id":"a","label":"x","state":"active","reference":{"type":"session","url":"https://x.com"}}],"actions":[]}}`, "not a field"},
		{"reference missing field", `{"snapshot":{"revision":1,"activities":[{"id":"a","label":"x","state":"active","reference":{"type":"artifact"}}],"actions":[]}}`, "artifact_id"},
		{"too big", `{"snapshot":{"revision":1,"activities":[],"actions":[],"collection":{"kind":"list","nodes":[],"detail":{"text":"` + strings.Repeat("x", 262144) + `"}}}}`, "encoded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.notify("presentation/update", tc.params)
			if len(e.eventsOf(services.EventPresentation)) != 0 {
				t.Fatal("invalid snapshot emitted")
			}
			if d := e.lastDiagnostic(); !strings.Contains(d, tc.want) {
				t.Fatalf("diagnostic %q does not mention %q", d, tc.want)
			}
		})
	}
}

func TestPresentationURLs(t *testing.T) {
	cases := map[string]bool{
		"https://example.com/a?b=c":     true,
		"http://example.com:8080/":      true,
		"HTTPS://Example.COM":           false, // the schema's URLReference pattern is ^https?:// (lowercase), as every SDK judges it
		"https://8.8.8.8/":              true,
		"https://[2001:4860::8888]/":    true,
		"ftp://example.com":             false,
		"javascript:alert(1)":           false,
		"/relative":                     false,
		"https://user:pw@example.com":   false,
		"https://user@example.com":      false,
		"http://localhost:3000":         false,
		"http://app.localhost":          false,
		"http://printer.local/":         false,
		"http://printer.local./":        false,
		"http://127.0.0.1/":             false,
		"http://10.1.2.3/":              false,
		"http://192.168.1.1/":           false,
		"http://172.16.0.1/":            false,
		"http://169.254.169.254/latest": false,
		"http://0.0.0.0/":               false,
		"http://224.0.0.1/":             false,
		"http://[::1]/":                 false,
		"http://[fe80::1]/":             false,
		"http://[fc00::1]/":             false,
		"http://[::ffff:127.0.0.1]/":    false,
		"http://127.1/":                 false,
		"http://2130706433/":            false,
		"http://0x7f.1/":                false,
		"https://exa mple.com":          false,
		"https:///nohost":               false,
	}
	for u, ok := range cases {
		t.Run(u, func(t *testing.T) {
			e := newEnv(t, nil)
			ref, _ := json.Marshal(u)
			e.notify("presentation/update", `{"snapshot":{"revision":1,"activities":[{"id":"a","label":"x","state":"active","reference":{"type":"url","url":`+string(ref)+`}}],"actions":[]}}`)
			got := len(e.eventsOf(services.EventPresentation)) == 1
			if got != ok {
				t.Fatalf("accepted=%v, want %v (diagnostic %q)", got, ok, e.lastDiagnostic())
			}
		})
	}
}

func TestPresentationRevisionsAndRate(t *testing.T) {
	e := newEnv(t, nil)
	e.notify("presentation/update", snapshotJSON(5, ""))
	e.notify("presentation/update", snapshotJSON(5, "")) // not above 5
	e.notify("presentation/update", snapshotJSON(4, ""))
	if n := len(e.eventsOf(services.EventPresentation)); n != 1 {
		t.Fatalf("%d emitted, want 1", n)
	}
	if d := e.lastDiagnostic(); !strings.Contains(d, "not above") {
		t.Fatalf("diagnostic %q", d)
	}
	// Fill the window: 31 more go straight out (32 in this second).
	for rev := 6; rev < 6+31; rev++ {
		e.notify("presentation/update", snapshotJSON(rev, ""))
	}
	if n := len(e.eventsOf(services.EventPresentation)); n != 32 {
		t.Fatalf("%d emitted, want 32", n)
	}
	before := len(e.eventsOf(services.EventDiagnostic))
	// The next ten coalesce; only the last survives, with one diagnostic.
	for rev := 100; rev < 110; rev++ {
		e.notify("presentation/update", snapshotJSON(rev, ""))
	}
	if n := len(e.eventsOf(services.EventPresentation)); n != 32 {
		t.Fatalf("throttled updates emitted early: %d", n)
	}
	if n := len(e.eventsOf(services.EventDiagnostic)) - before; n != 1 {
		t.Fatalf("%d diagnostics for one throttled window, want 1", n)
	}
	e.clock.Advance(time.Second)
	if fired := e.timers.Fire(); fired != 1 {
		t.Fatalf("%d flush timers fired, want 1", fired)
	}
	ev := e.eventsOf(services.EventPresentation)
	if len(ev) != 33 || ev[32].Payload.(services.PresentationUpdate).Revision != 109 {
		t.Fatalf("after flush: %d events, last revision %d", len(ev), ev[len(ev)-1].Payload.(services.PresentationUpdate).Revision)
	}
	// A new window: updates flow again.
	e.notify("presentation/update", snapshotJSON(110, ""))
	if n := len(e.eventsOf(services.EventPresentation)); n != 34 {
		t.Fatalf("%d emitted in the next window, want 34", n)
	}
	// A new generation starts its own revision sequence.
	e.r.GenerationEnded(e.c)
	e.c.Generation = 2
	e.notify("presentation/update", snapshotJSON(0, ""))
	if n := len(e.eventsOf(services.EventPresentation)); n != 35 {
		t.Fatalf("new generation's revision 0 refused: %q", e.lastDiagnostic())
	}
}
