package redact_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/redact/redacttest"
)

// TestStreamSplitAnywhere feeds a stderr-like stream holding every hostile
// value (raw, so the one with a newline spans two lines, and as each real
// encoder writes it) cut into pieces at every possible offset; the output is
// clean, and with no secret in it the stream comes out byte for byte.
func TestStreamSplitAnywhere(t *testing.T) {
	values := redacttest.Values(t)
	enc := redacttest.Encodings(t, values)
	r := redact.New()
	r.Add(values...)
	var in bytes.Buffer
	for _, v := range values {
		for _, f := range enc[v] {
			in.WriteString("log: " + f.Text + " end\n")
		}
	}
	data := in.Bytes()
	for _, size := range []int{1, 2, 3, 7, 64, len(data)} {
		s := redact.NewStream(r)
		var out []byte
		for i := 0; i < len(data); i += size {
			out = append(out, s.Push(data[i:min(len(data), i+size)])...)
		}
		out = append(out, s.Flush()...)
		assertClean(t, "stream", out, enc)
		if got, want := bytes.Count(out, []byte("\n")), bytes.Count(data, []byte("\n")); got > want || got < want-len(values) {
			t.Errorf("piece size %d: %d lines out of %d", size, got, want)
		}
	}
	clean := []byte("ordinary stderr\nwith lines\n and a partial tail")
	s := redact.NewStream(r)
	var out []byte
	for _, b := range clean {
		out = append(out, s.Push([]byte{b})...)
	}
	if out = append(out, s.Flush()...); !bytes.Equal(out, clean) {
		t.Errorf("clean stream changed: %q", out)
	}
}

// TestWriterRedactsLinesAndFrames: the CLI's writer hides a value in a JSON
// line written fully \u-escaped (only decoding finds it), a raw value whose
// newline splits it over two writes, and leaves other lines alone.
func TestWriterRedactsLinesAndFrames(t *testing.T) {
	values := redacttest.Values(t)
	enc := redacttest.Encodings(t, values)
	r := redact.New()
	r.Add(values...)
	var out bytes.Buffer
	w := redact.NewWriter(r, &out)
	for _, v := range values {
		w.Write([]byte(`{"tool":"x","error":{"message":"` + unicodeEscaped(v) + `"}}` + "\n"))
		for _, part := range strings.SplitAfter("octet-host call: x failed: "+v+"\n", "\n") {
			w.Write([]byte(part))
		}
	}
	w.Write([]byte("plain line\n"))
	w.Write([]byte("unterminated"))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	assertClean(t, "writer", out.Bytes(), enc)
	for _, v := range values {
		if bytes.Contains(out.Bytes(), []byte(unicodeEscaped(v))) {
			t.Errorf("escaped %q passed the writer", v)
		}
	}
	if !strings.HasSuffix(out.String(), "plain line\nunterminated") || strings.Count(out.String(), `{"tool":"x","error":{"message":"[redacted]"}}`) != len(values) {
		t.Errorf("writer output:\n%s", out.String())
	}
}
