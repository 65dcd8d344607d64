package redact_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/redact/redacttest"
)

// benchSecrets are three registered values (plain, JSON-special, non-ASCII);
// benchFrames a typical tool/call request and its result (the result has
// escapes, so the string decoding path runs). Neither frame holds a secret:
// the common case every traced or recorded frame pays for.
var benchSecrets = []string{"tok-9f8e7d6c5b4a", `pa"ss\word<&>`, "clé-🔑-secrète"}

var benchFrames = map[string][]byte{
	"call":   []byte(`{"jsonrpc":"2.0","id":7,"method":"tool/call","params":{"name":"search_issues","arguments":{"query":"label:bug state:open","limit":25,"include_closed":false},"_meta":{"call_id":"call-0007","turn_id":"turn-3"}}}`),
	"result": []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Found 3 issues:\n- #12 \"crash on start\"\n- #40 slow search\n- #41 typo in README"}],"structured_content":{"count":3,"ids":[12,40,41]},"is_error":false}}`),
}

func BenchmarkFrameNoSecret(b *testing.B) {
	for _, name := range []string{"call", "result"} {
		f := benchFrames[name]
		b.Run(name, func(b *testing.B) {
			r := redact.New()
			r.Add(benchSecrets...)
			b.ReportAllocs()
			for b.Loop() {
				_ = r.Frame(f)
			}
		})
	}
}

// BenchmarkFrameNoSecretHostile is the same frame with the ten hostile test
// values registered (each has several escaped forms): how the prefilter
// scales with the number of needles.
func BenchmarkFrameNoSecretHostile(b *testing.B) {
	r := redact.New()
	r.Add(redacttest.Values(b)...)
	for _, name := range []string{"call", "result"} {
		f := benchFrames[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = r.Frame(f)
			}
		})
	}
}

// BenchmarkFrameManyEchoes: a hostile 1 MiB frame echoing a registered value
// 20,000 times in one string and in free text; redaction must stay linear in
// the frame size (each needle scans the text once).
func BenchmarkFrameManyEchoes(b *testing.B) {
	r := redact.New()
	r.Add(benchSecrets...)
	r.Add(redacttest.Values(b)...)
	echo := strings.Repeat("tok-9f8e7d6c5b4a filler text ", 20000)
	frame := []byte(`{"jsonrpc":"2.0","method":"notification","params":{"message":"` + echo[:min(len(echo), 1<<20-100)] + `"}}`)
	for _, name := range []string{"frame", "text"} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			for b.Loop() {
				if name == "frame" {
					_ = r.Frame(frame)
				} else {
					_ = r.Text(string(frame))
				}
			}
		})
	}
}
