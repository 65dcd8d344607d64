package host_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/manifest"
)

// settingsEntry lays out the settings fixture (Go SDK) as name.
func (f *fixture) settingsEntry(name string) *discovery.Entry {
	return f.settingsEntryIn(name, "go")
}

// settingsEntryIn lays out the settings fixture of lang as name.
func (f *fixture) settingsEntryIn(name, lang string) *discovery.Entry {
	f.t.Helper()
	dir := testext.WriteSettingsIn(f.t, f.root, name, lang)
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: "0.8.0"})
	en := res.Lookup(name)
	if en == nil || !en.Valid() {
		f.t.Fatalf("settings manifest invalid: %v", res.Diagnostics)
	}
	return en
}

// TestSettingsRefusedBeforeStart: a value that breaks the manifest's settings schema
// refuses the start with the extension, key, pointer and rule named, and no process ran.
func TestSettingsRefusedBeforeStart(t *testing.T) {
	cases := []struct {
		name   string
		values map[string]any
		want   []string
	}{
		{"over-maximum", map[string]any{"limit": int64(11)}, []string{"extension cfg: setting limit refused: /limit:", "(settings maximum)"}},
		{"wrong-type", map[string]any{"limit": "3"}, []string{"setting limit refused: /limit:", "(settings type)"}},
		{"missing-required", map[string]any{}, []string{"setting (root) refused: (root):", "(settings required)"}},
		{"unknown-key", map[string]any{"limit": int64(2), "colour<&>\"": "x"}, []string{"(settings additionalProperties)"}},
		{"secret-not-allowed", map[string]any{"limit": int64(2), "token": "sk-live-123"}, []string{"setting token refused: /token: must name a secret of capabilities.secrets (API_TOKEN)", "(settings secret-name)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.opts.Services = &recordingServices{}
			f.opts.Settings = map[string]map[string]any{"cfg": c.values}
			_, failures, _ := f.start([]*discovery.Entry{f.settingsEntry("cfg")})
			if len(failures) != 1 {
				t.Fatalf("failures %v, want the start refused", failures)
			}
			var se *host.StartError
			if !errors.As(failures[0].Err, &se) || se.Kind != "settings_refused" {
				t.Fatalf("err %v, want a settings_refused StartError", failures[0].Err)
			}
			for _, w := range c.want {
				if !strings.Contains(se.Message, w) {
					t.Errorf("message %q lacks %q", se.Message, w)
				}
			}
			if strings.Contains(se.Message, "sk-live-123") {
				t.Errorf("message echoes the value given as a secret name: %q", se.Message)
			}
			if len(se.Stderr) != 0 || se.Log != "" {
				t.Errorf("a process ran for refused settings: %+v", se)
			}
		})
	}
}

// TestSettingsDeliveredAndChangedLive: in every SDK, defaults apply, the settings reach the
// typed handler, a change reaches the same process, a dry run and a refusal change nothing,
// and a value the schema forbids never reaches the extension.
func TestSettingsDeliveredAndChangedLive(t *testing.T) {
	for _, lang := range testext.SettingsLanguages {
		t.Run(lang, func(t *testing.T) { settingsLive(t, lang) })
	}
}

func settingsLive(t *testing.T, lang string) {
	f := newFixture(t)
	f.opts.Services = &recordingServices{}
	f.opts.Settings = map[string]map[string]any{"cfg": {"limit": int64(3), "token": "API_TOKEN"}}
	h, failures, err := f.start([]*discovery.Entry{f.settingsEntryIn("cfg", lang)})
	if err != nil || len(failures) > 0 {
		t.Fatalf("start: %v %v", err, failures)
	}
	show := func() (string, string) {
		t.Helper()
		out, err := call(t, h, "show", "{}")
		if err != nil {
			t.Fatal(err)
		}
		state, pid, _ := strings.Cut(out, " pid ")
		return state, pid
	}
	state, pid := show()
	if state != "Hello/3/API_TOKEN rev 1" {
		t.Fatalf("at start: %q, want the default greeting at revision 1", state)
	}
	ext := h.Extension("cfg")
	ctx := context.Background()

	out, err := ext.Configure(ctx, map[string]any{"limit": int64(7), "greeting": "Hi"}, false)
	if err != nil || out.Revision != 2 || !out.Delivered {
		t.Fatalf("configure: %+v %v", out, err)
	}
	if s, p := show(); s != "Hi/7/ rev 2" || p != pid {
		t.Fatalf("after configure: %q pid %s (was %s), want the change in the same process", s, p, pid)
	}

	if _, err := ext.Configure(ctx, map[string]any{"limit": int64(9), "greeting": "Dry"}, true); err != nil {
		t.Fatalf("dry run: %v", err)
	}
	var refused *host.ConfigureRefusedError
	_, err = ext.Configure(ctx, map[string]any{"limit": int64(9), "greeting": "refuse-me"}, false)
	if !errors.As(err, &refused) || strings.Join(refused.Reasons, "|") != `greeting "refuse-me" is refused|pick another` {
		t.Fatalf("refusal: %v", err)
	}
	_, err = ext.Configure(ctx, map[string]any{"limit": int64(0)}, false)
	var bad *host.SettingsError
	if !errors.As(err, &bad) || bad.Key != "limit" || bad.Rule != "minimum" {
		t.Fatalf("invalid change: %v, want a SettingsError for limit/minimum", err)
	}
	if s, p := show(); s != "Hi/7/ rev 2" || p != pid {
		t.Fatalf("after dry run, refusal and invalid change: %q pid %s, want revision 2 still in force", s, p)
	}
}

// memResults is an in-memory host.IdempotencyStore: recorded results only (no call here
// runs concurrently with another under one key, so claims always succeed).
type memResults struct {
	mu   sync.Mutex
	rows map[string][2]string
}

func (m *memResults) ClaimKey(_ context.Context, ext, key, digest string, _ time.Duration) (host.IdempotencyClaim, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.rows[ext+"\x00"+key]; ok {
		return host.IdempotencyClaim{Recorded: true, Digest: r[0], Result: []byte(r[1])}, nil
	}
	return host.IdempotencyClaim{Token: "t", Digest: digest}, nil
}

func (m *memResults) RenewClaim(context.Context, string, string, string, time.Duration) (bool, error) {
	return true, nil
}

func (m *memResults) CompleteClaim(_ context.Context, ext, key, _, digest string, result []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.rows[ext+"\x00"+key]; !ok {
		m.rows[ext+"\x00"+key] = [2]string{digest, string(result)}
	}
	return nil
}

func (m *memResults) ReleaseClaim(context.Context, string, string, string) error { return nil }

// TestIdempotencyKeyReachesEverySDK: the key travels on tool/call and each SDK exposes it
// to the handler (Go octet.IdempotencyKey, Python context["idempotency_key"], TypeScript
// ctx.idempotencyKey); a repeat replays the record, other arguments conflict.
func TestIdempotencyKeyReachesEverySDK(t *testing.T) {
	for _, lang := range testext.SettingsLanguages {
		t.Run(lang, func(t *testing.T) {
			f := newFixture(t)
			f.opts.Services = &recordingServices{}
			store := &memResults{rows: map[string][2]string{}}
			f.opts.Idempotency = store
			f.opts.Settings = map[string]map[string]any{"cfg": {"limit": int64(1)}}
			h, failures, err := f.start([]*discovery.Entry{f.settingsEntryIn("cfg", lang)})
			if err != nil || len(failures) > 0 {
				t.Fatalf("start: %v %v", err, failures)
			}
			ext, ctx := h.Extension("cfg"), context.Background()
			raw, err := ext.Call(ctx, host.ToolCall{Name: "key", IdempotencyKey: "k-1"})
			if err != nil || text(t, raw) != "key=k-1" {
				t.Fatalf("first: %s %v", raw, err)
			}
			if raw, err := ext.Call(ctx, host.ToolCall{Name: "key"}); err != nil || text(t, raw) != "key=" {
				t.Fatalf("without a key: %s %v", raw, err)
			}
			store.mu.Lock()
			rec := store.rows["cfg\x00k-1"]
			store.rows["cfg\x00k-1"] = [2]string{rec[0], `{"content":[{"type":"text","text":"recorded"}]}`}
			store.mu.Unlock()
			if raw, err := ext.Call(ctx, host.ToolCall{Name: "key", IdempotencyKey: "k-1"}); err != nil || text(t, raw) != "recorded" {
				t.Fatalf("retry: %s %v, want the recorded result without a call", raw, err)
			}
			var conflict *host.IdempotencyConflictError
			if _, err := ext.Call(ctx, host.ToolCall{Name: "key", Arguments: []byte(`{"x":1}`), IdempotencyKey: "k-1"}); !errors.As(err, &conflict) {
				t.Fatalf("other arguments: %v, want an IdempotencyConflictError", err)
			}
		})
	}
}
