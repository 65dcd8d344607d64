package redact_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/redact/redacttest"
)

// TestDerivedEncodingsRedacted: each hostile value, re-encoded by the real
// encoders of Go, Python and node (percent-encoding in six writers' sets,
// base64 both alphabets padded and not, hex both cases, HTML named, decimal
// and hex references, every character as \u), is gone from free text and
// from a JSON frame holding it; nothing of it decodes back from what is left.
func TestDerivedEncodingsRedacted(t *testing.T) {
	values := redacttest.Values(t)
	enc := redacttest.DerivedEncodings(t, values)
	r := redact.New()
	r.Add(values...)
	forms := 0
	for _, v := range values {
		for _, f := range enc[v] {
			forms++
			text := "before " + f.Text + " after"
			got := r.Text(text)
			if !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") || !strings.Contains(got, redact.Placeholder) {
				t.Errorf("%s of %q: Text gave %q", f.Writer, v, got)
			}
			frame, _ := json.Marshal(map[string]string{"value": text})
			gotFrame := r.Frame(frame)
			if !json.Valid(gotFrame) {
				t.Errorf("%s of %q: frame became invalid JSON: %s", f.Writer, v, gotFrame)
			}
			for what, out := range map[string][]byte{"text": []byte(got), "frame": gotFrame} {
				for _, found := range redacttest.Scan(what, out, enc) {
					t.Errorf("%s of %q: %s still holds %q as %s: %q", f.Writer, v, what, found.Value, found.Writer, out)
				}
				for _, found := range redacttest.ScanDecoded(what, out, values) {
					t.Errorf("%s of %q: %s still decodes to %q (%s): %q", f.Writer, v, what, found.Value, found.Writer, out)
				}
			}
		}
	}
	if forms < 20*len(values) {
		t.Fatalf("only %d derived forms of %d values", forms, len(values))
	}
}

// TestBase64InsideLongerStream: a secret inside a longer base64 stream, after
// 0 to 5 bytes of other data and before 0 to 2, in both alphabets: the
// characters that depend only on the secret are replaced, so no alignment
// of what is left decodes back to the secret, and the stream's other data
// stays.
func TestBase64InsideLongerStream(t *testing.T) {
	values := redacttest.Values(t)
	r := redact.New()
	r.Add(values...)
	for _, v := range values {
		for pre := range 6 {
			for post := range 3 {
				data := strings.Repeat("P", pre) + v + strings.Repeat("Q", post)
				for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding} {
					stream := "Authorization: Basic " + enc.EncodeToString([]byte(data))
					got := r.Text(stream)
					if got == stream {
						t.Errorf("%q after %d bytes: %q not redacted", v, pre, stream)
						continue
					}
					for _, found := range redacttest.ScanDecoded("text", []byte(got), values) {
						t.Errorf("%q after %d, before %d: %q still decodes to %q (%s)", v, pre, post, got, found.Value, found.Writer)
					}
					if !strings.HasPrefix(got, "Authorization: Basic ") {
						t.Errorf("the text around went: %q", got)
					}
				}
			}
		}
	}
}

// TestShortSecretDerivedFormsSkipped: a derived form shorter than six bytes
// would match unrelated text, so it is not a needle; the raw secret still is.
func TestShortSecretDerivedFormsSkipped(t *testing.T) {
	r := redact.New()
	r.Add("ab")
	// "YWI" is base64 of "ab" (3 characters), "6162" its hex (4).
	if got := r.Text("YWI= 6162 ab"); got != "YWI= 6162 "+redact.Placeholder {
		t.Fatalf("got %q", got)
	}
}
