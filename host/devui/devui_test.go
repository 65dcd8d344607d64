package devui_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/devui"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
)

// kit is the repository root (examples live there).
func kit(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

type inspector struct {
	srv  *devui.Server
	rt   *reference.Host
	base string
}

// serve starts a dev server; with dirs, over a reference host running those extensions.
func serve(t *testing.T, dirs ...string) *inspector {
	t.Helper()
	return serveWith(t, devui.Config{}, dirs...)
}

func serveWith(t *testing.T, cfg devui.Config, dirs ...string) *inspector {
	t.Helper()
	srv := devui.New(cfg)
	if err := srv.Listen(0); err != nil {
		t.Fatal(err)
	}
	var hostRT *reference.Host
	if len(dirs) > 0 {
		opts := reference.Options{Host: host.Options{StateDir: t.TempDir(), RequestTimeout: 20 * time.Second}, Record: true}
		srv.Wire(&opts)
		rt, err := reference.Open(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = rt.Close() })
		if _, err := rt.StartDirs(context.Background(), dirs...); err != nil {
			t.Fatal(err)
		}
		sess, err := rt.BeginSession()
		if err != nil {
			t.Fatal(err)
		}
		srv.Attach(rt, sess)
		hostRT = rt
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Serve(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return &inspector{srv: srv, rt: hostRT, base: "http://" + srv.Addr()}
}

// req sends one request; mod changes it before it goes.
func (in *inspector) req(t *testing.T, method, path, body string, mod func(*http.Request)) *http.Response {
	t.Helper()
	r, err := http.NewRequest(method, in.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if mod != nil {
		mod(r)
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func withToken(tok string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set(devui.TokenHeader, tok) }
}

func TestListensOnLoopbackOnly(t *testing.T) {
	in := serve(t)
	if !strings.HasPrefix(in.srv.Addr(), "127.0.0.1:") {
		t.Fatalf("bound %s, want 127.0.0.1:PORT", in.srv.Addr())
	}
	if !strings.HasPrefix(in.srv.URL(), "http://"+in.srv.Addr()+"/?token=") || len(in.srv.Token()) < 32 {
		t.Fatalf("URL %s, token %q", in.srv.URL(), in.srv.Token())
	}
	if other := devui.New(devui.Config{}); other.Token() == in.srv.Token() {
		t.Fatal("two servers got the same token")
	}
}

// Each case is the passing request with one thing changed; the passing request itself is
// checked too, so a refusal cannot come from something else.
func TestRefusesWithoutTokenForeignHostOrOrigin(t *testing.T) {
	in := serve(t)
	tok := in.srv.Token()
	_, port, _ := strings.Cut(in.srv.Addr(), ":")
	for _, path := range []string{"/", "/app.js", "/api/state", "/api/events"} {
		stream := path == "/api/events"
		query := ""
		if stream || path == "/" || path == "/app.js" {
			query = "?token=" + tok // the page and the stream carry it in the URL
		}
		cases := []struct {
			name  string
			path  string
			mod   func(*http.Request)
			code  int
			words string
		}{
			{"ok", path + query, withToken(tok), 200, ""},
			{"ok from own origin", path + query, func(r *http.Request) {
				withToken(tok)(r)
				r.Header.Set("Origin", "http://127.0.0.1:"+port)
				r.Header.Set("Sec-Fetch-Site", "same-origin")
			}, 200, ""},
			{"no token", path, nil, 401, "token is missing"},
			{"wrong token", path + "?token=" + strings.Repeat("0", len(tok)), nil, 401, "token is wrong"},
			{"foreign Host (DNS rebinding)", path + query, func(r *http.Request) { withToken(tok)(r); r.Host = "attacker.example:" + port }, 403, "DNS rebinding"},
			{"other port on loopback", path + query, func(r *http.Request) { withToken(tok)(r); r.Host = "127.0.0.1:1" }, 403, "not this inspector's address"},
			{"foreign Origin", path + query, func(r *http.Request) { withToken(tok)(r); r.Header.Set("Origin", "https://attacker.example") }, 403, "cross-site"},
			{"another localhost page", path + query, func(r *http.Request) { withToken(tok)(r); r.Header.Set("Origin", "http://localhost:1") }, 403, "cross-site"},
			{"cross-site fetch metadata", path + query, func(r *http.Request) { withToken(tok)(r); r.Header.Set("Sec-Fetch-Site", "cross-site") }, 403, "another site"},
			{"preflight", path + query, func(r *http.Request) {
				withToken(tok)(r)
				r.Method = http.MethodOptions
				r.Header.Set("Access-Control-Request-Method", "POST")
			}, 405, "no CORS"},
		}
		for _, c := range cases {
			t.Run(path+"/"+c.name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				res := in.req(t, "GET", c.path, "", func(r *http.Request) {
					*r = *r.WithContext(ctx)
					if c.mod != nil {
						c.mod(r)
					}
				})
				if res.StatusCode != c.code {
					t.Fatalf("status %d, want %d", res.StatusCode, c.code)
				}
				for k := range res.Header {
					if strings.HasPrefix(strings.ToLower(k), "access-control-") {
						t.Fatalf("CORS header %s sent", k)
					}
				}
				if c.code == 200 {
					if stream && !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
						t.Fatalf("stream content type %q", res.Header.Get("Content-Type"))
					}
					return
				}
				body, _ := io.ReadAll(res.Body)
				if !strings.Contains(string(body), c.words) {
					t.Fatalf("body %q does not say %q", body, c.words)
				}
			})
		}
	}
}

func TestPostsNeedJSON(t *testing.T) {
	in := serve(t)
	res := in.req(t, "POST", "/api/answer", "", func(r *http.Request) {
		withToken(in.srv.Token())(r)
		r.Header.Set("Content-Type", "text/plain")
		r.Body = io.NopCloser(strings.NewReader(`{"id":"q1"}`))
	})
	if res.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("text/plain post: %d", res.StatusCode)
	}
	res = in.req(t, "POST", "/api/answer", `{"id":"q9","confirmed":true}`, withToken(in.srv.Token()))
	if body, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusConflict || !strings.Contains(string(body), "no open question") {
		t.Fatalf("unknown question: %d %s", res.StatusCode, body)
	}
}

func decode[T any](t *testing.T, res *http.Response) T {
	t.Helper()
	var v T
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("%s: status %d: %s", res.Request.URL.Path, res.StatusCode, body)
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: %v: %s", res.Request.URL.Path, err, body)
	}
	return v
}

type callAnswer struct {
	Result *struct {
		Content           []struct{ Type, Text string }
		StructuredContent map[string]any `json:"structured_content"`
	}
	Error *struct{ Message string }
}

// stream reads the event stream's entries as they come.
type stream struct {
	entries chan devui.Entry
}

func (in *inspector) stream(t *testing.T, since int64) *stream {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/events?token=%s&since=%d", in.base, in.srv.Token(), since), nil)
	res, err := http.DefaultClient.Do(r)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", err, res)
	}
	s := &stream{entries: make(chan devui.Entry, 1024)}
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var e devui.Entry
				if json.Unmarshal([]byte(data), &e) == nil {
					s.entries <- e
				}
			}
		}
		close(s.entries)
	}()
	return s
}

// next returns the first entry satisfying ok, failing after a bound.
func (s *stream) next(t *testing.T, what string, ok func(devui.Entry) bool) devui.Entry {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e, open := <-s.entries:
			if !open {
				t.Fatalf("stream closed waiting for %s", what)
			}
			if ok(e) {
				return e
			}
		case <-timeout:
			t.Fatalf("no %s on the stream", what)
		}
	}
}

func fixture(t *testing.T) string {
	return filepath.Join(kit(t), "examples", "go", "conformance-fixture")
}

func TestCallToolAndAnswerConfirmation(t *testing.T) {
	in := serve(t, fixture(t))
	tok := withToken(in.srv.Token())
	st := decode[struct {
		Extensions []struct {
			Name, State string
			ToolDefs    []struct{ Name string } `json:"tool_definitions"`
			Commands    []string
			Hooks       []string
		}
	}](t, in.req(t, "GET", "/api/state", "", tok))
	if len(st.Extensions) != 1 || st.Extensions[0].State != "ready" || len(st.Extensions[0].ToolDefs) < 10 || len(st.Extensions[0].Commands) == 0 || len(st.Extensions[0].Hooks) == 0 {
		t.Fatalf("state: %+v", st)
	}

	ev := in.stream(t, 0)
	got := decode[callAnswer](t, in.req(t, "POST", "/api/call", `{"extension":"conformance-fixture","tool":"echo","arguments":{"value":{"a":[1,2]}}}`, tok))
	if got.Result == nil || fmt.Sprint(got.Result.StructuredContent["value"]) != "map[a:[1 2]]" {
		t.Fatalf("echo: %+v", got)
	}
	ev.next(t, "the tool/call frame", func(e devui.Entry) bool {
		d, _ := e.Data.(map[string]any)
		return e.Type == "frame" && d["method"] == "tool/call" && d["direction"] == "host->ext"
	})

	// A confirmation waits for the page: the call returns only after the answer.
	for _, answer := range []bool{true, false} {
		done := make(chan callAnswer, 1)
		go func() {
			done <- decode[callAnswer](t, in.req(t, "POST", "/api/call", `{"extension":"conformance-fixture","tool":"ask","arguments":{"kind":"confirm","prompt":"Delete it?"}}`, tok))
		}()
		q := ev.next(t, "the question", func(e devui.Entry) bool { return e.Type == "question" })
		qd := q.Data.(map[string]any)
		if qd["kind"] != "confirm" || qd["message"] != "Delete it?" || qd["extension"] != "conformance-fixture" {
			t.Fatalf("question: %+v", qd)
		}
		select {
		case r := <-done:
			t.Fatalf("the call returned before the answer: %+v", r)
		default:
		}
		pending := decode[struct{ Questions []struct{ ID string } }](t, in.req(t, "GET", "/api/state", "", tok))
		if len(pending.Questions) != 1 || pending.Questions[0].ID != qd["id"] {
			t.Fatalf("a reloaded page would not see the open question: %+v", pending)
		}
		decode[map[string]any](t, in.req(t, "POST", "/api/answer", fmt.Sprintf(`{"id":%q,"confirmed":%v}`, qd["id"], answer), tok))
		r := <-done
		if r.Result == nil || r.Result.StructuredContent["answer"] != answer {
			t.Fatalf("answered %v, result %+v", answer, r)
		}
		ev.next(t, "the confirmation event", func(e devui.Entry) bool {
			d, _ := e.Data.(map[string]any)
			p, _ := d["payload"].(map[string]any)
			return e.Type == "event" && d["kind"] == "confirmation" && p["confirmed"] == answer && p["reason"] == services.ReasonAsked
		})
	}

	// Input too; the value never goes on the stream.
	done := make(chan callAnswer, 1)
	go func() {
		done <- decode[callAnswer](t, in.req(t, "POST", "/api/call", `{"extension":"conformance-fixture","tool":"ask","arguments":{"kind":"input","prompt":"Name?"}}`, tok))
	}()
	q := ev.next(t, "the input question", func(e devui.Entry) bool { return e.Type == "question" })
	decode[map[string]any](t, in.req(t, "POST", "/api/answer", fmt.Sprintf(`{"id":%q,"value":"Ada Lovelace"}`, q.Data.(map[string]any)["id"]), tok))
	if r := <-done; r.Result == nil || !strings.Contains(fmt.Sprint(r.Result.StructuredContent), "Ada Lovelace") {
		t.Fatalf("input result %+v", r)
	}
}

func TestProgressPresentationAndResume(t *testing.T) {
	in := serve(t, fixture(t))
	tok := withToken(in.srv.Token())
	decode[callAnswer](t, in.req(t, "POST", "/api/call", `{"extension":"conformance-fixture","tool":"progress_n","arguments":{"n":3}}`, tok))
	decode[callAnswer](t, in.req(t, "POST", "/api/call", `{"extension":"conformance-fixture","tool":"present","arguments":{"revision":1,"activities":2}}`, tok))
	// A page that opens (or reloads) now replays what happened from the ring.
	all := in.stream(t, 0)
	var progress, snaps int
	var last int64
	for progress < 3 || snaps < 1 {
		e := all.next(t, "progress and the snapshot", func(e devui.Entry) bool { return e.Type == "event" })
		switch e.Data.(map[string]any)["kind"] {
		case "progress":
			progress++
		case "presentation":
			snaps++
		}
		last = e.Seq
	}
	// Resuming after the last seen entry repeats nothing: the next entry is a new one.
	resumed := in.stream(t, last)
	decode[callAnswer](t, in.req(t, "POST", "/api/call", `{"extension":"conformance-fixture","tool":"echo","arguments":{"value":1}}`, tok))
	if e := resumed.next(t, "any entry", func(devui.Entry) bool { return true }); e.Seq <= last {
		t.Fatalf("resumed at %d, got entry %d again", last, e.Seq)
	}
	sessions := decode[struct {
		Sessions []struct {
			SessionID string `json:"session_id"`
		}
	}](t, in.req(t, "GET", "/api/sessions", "", tok))
	if len(sessions.Sessions) == 0 {
		t.Fatal("no recorded session listed")
	}
}

func TestCommandAndCatalogRevision(t *testing.T) {
	in := serve(t, fixture(t))
	tok := withToken(in.srv.Token())
	ev := in.stream(t, 0)
	first := ev.next(t, "the first catalog", func(e devui.Entry) bool { return e.Type == "catalog" })
	rev0 := first.Data.(map[string]any)["revision"].(float64)
	decode[callAnswer](t, in.req(t, "POST", "/api/call", `{"extension":"conformance-fixture","tool":"register_dynamic","arguments":{"name":"dyn_tool","text":"first"}}`, tok))
	next := ev.next(t, "the next catalog revision", func(e devui.Entry) bool { return e.Type == "catalog" })
	d := next.Data.(map[string]any)
	if d["revision"].(float64) <= rev0 || !strings.Contains(fmt.Sprint(d["tools"]), "dyn_tool") {
		t.Fatalf("catalog after tools/register: %+v (first revision %v)", d, rev0)
	}
	st := decode[struct {
		Extensions []struct {
			ToolDefs []struct{ Name string } `json:"tool_definitions"`
		}
	}](t, in.req(t, "GET", "/api/state", "", tok))
	if !strings.Contains(fmt.Sprint(st.Extensions[0].ToolDefs), "dyn_tool") {
		t.Fatalf("state lacks the dynamic tool: %+v", st)
	}
	res := decode[struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}](t, in.req(t, "POST", "/api/command", `{"extension":"conformance-fixture","command":"fixture_cmd","arguments":["a","b"]}`, tok))
	if res.Error != nil || len(res.Result) == 0 {
		t.Fatalf("command: %+v", res)
	}
	bad := decode[struct{ Error *struct{ Message string } }](t, in.req(t, "POST", "/api/command", `{"extension":"conformance-fixture","command":"no_such"}`, tok))
	if bad.Error == nil || bad.Error.Message == "" {
		t.Fatalf("unknown command: %+v", bad)
	}
}

func TestArtifactPreviewOnlyImages(t *testing.T) {
	in := serve(t, fixture(t))
	tok := withToken(in.srv.Token())
	// Artifacts as the artifact service stores them: a committed blob and its record.
	put := func(id, mime string, data []byte) {
		st := in.rt.Store()
		w, err := st.NewBlobWriter()
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		sum, err := w.Commit()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.PutArtifact(context.Background(), store.Artifact{ID: id, Extension: "conformance-fixture", InstanceID: "i", Generation: 1,
			MIMEType: mime, Size: int64(len(data)), SHA256: sum}, 10, 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 92)...)
	put("art-img", "image/png", png)
	put("art-html", "text/html", []byte("<script>alert(1)</script>"))
	res := in.req(t, "GET", "/api/artifact?id=art-img", "", tok)
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" || len(body) != len(png) {
		t.Fatalf("image artifact: %d %q %d bytes", res.StatusCode, res.Header.Get("Content-Type"), len(body))
	}
	if res := in.req(t, "GET", "/api/artifact?id=art-img", "", nil); res.StatusCode != 401 {
		t.Fatalf("artifact without the token: %d", res.StatusCode)
	}
	if res := in.req(t, "GET", "/api/artifact?id=art-html", "", tok); res.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("an HTML artifact was served: %d", res.StatusCode)
	}
	if res := in.req(t, "GET", "/api/artifact?id=nope", "", tok); res.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown artifact: %d", res.StatusCode)
	}
}

func TestReplaySeam(t *testing.T) {
	in := serve(t, fixture(t))
	tok := withToken(in.srv.Token())
	if res := in.req(t, "POST", "/api/replay", `{"session_id":"s"}`, tok); res.StatusCode != http.StatusNotImplemented {
		t.Fatalf("replay without a Replayer: %d", res.StatusCode)
	}
	if st := decode[struct{ Replay bool }](t, in.req(t, "GET", "/api/state", "", tok)); st.Replay {
		t.Fatal("state says replay is available without a Replayer")
	}
	var asked string
	with := serveWith(t, devui.Config{Replay: func(_ context.Context, st *store.Store, id string) (any, error) {
		if st == nil {
			return nil, fmt.Errorf("no store")
		}
		asked = id
		return map[string]any{"groups": []any{map[string]any{"label": "tool/call 2 (echo)", "lines": []any{map[string]any{"op": "-", "text": "old"}}}}}, nil
	}}, fixture(t))
	wtok := withToken(with.srv.Token())
	if st := decode[struct{ Replay bool }](t, with.req(t, "GET", "/api/state", "", wtok)); !st.Replay {
		t.Fatal("state does not say replay is available")
	}
	got := decode[struct {
		SessionID string `json:"session_id"`
		Diff      struct{ Groups []struct{ Label string } }
	}](t, with.req(t, "POST", "/api/replay", `{"session_id":"session-1-x"}`, wtok))
	if asked != "session-1-x" || got.SessionID != "session-1-x" || len(got.Diff.Groups) != 1 || got.Diff.Groups[0].Label != "tool/call 2 (echo)" {
		t.Fatalf("replay: asked %q, answer %+v", asked, got)
	}
}
