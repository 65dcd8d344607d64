package redact_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/redact/redacttest"
)

// unicodeEscaped writes every character of s as \uXXXX: legal JSON that no
// raw-byte comparison can see through.
func unicodeEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xffff {
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04X\u%04X`, 0xd800+(r>>10)&0x3ff, 0xdc00+r&0x3ff)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// assertClean fails when out still holds any encoding of any value.
func assertClean(t *testing.T, what string, out []byte, enc map[string][]redacttest.Encoding) {
	t.Helper()
	for _, f := range redacttest.Scan(what, out, enc) {
		t.Errorf("%s: %q still visible (as %s) in %q", what, f.Value, f.Writer, out)
	}
}

// TestFrameRedactsEveryEscaping puts each hostile value into frames the way
// each real encoder writes it, fully \u-escaped, with \/ for /, embedded in a
// longer string, as an object key and as JSON nested in a string; the
// redacted frame holds no form of any value, is still valid JSON, and keeps
// the text around the secret.
func TestFrameRedactsEveryEscaping(t *testing.T) {
	values := redacttest.Values(t)
	enc := redacttest.Encodings(t, values)
	r := redact.New()
	r.Add(values...)
	for _, v := range values {
		forms := append([]redacttest.Encoding{}, enc[v]...)
		forms = append(forms, redacttest.Encoding{Writer: "all-\\u", Text: unicodeEscaped(v)})
		goForm, _ := json.Marshal(v)
		forms = append(forms, redacttest.Encoding{Writer: "slash", Text: strings.ReplaceAll(string(goForm[1:len(goForm)-1]), "/", `\/`)})
		for _, f := range forms {
			if f.Writer == "raw" || !f.JSONForm() {
				continue // not a JSON string's content; TestTextRedactsEveryForm covers them
			}
			nested, _ := json.Marshal(`{"token":"` + f.Text + `"}`)
			frames := []string{
				`{"jsonrpc":"2.0","id":1,"result":{"value":"` + f.Text + `"}}`,
				`{"jsonrpc":"2.0","method":"notification","params":{"message":"before ` + f.Text + ` after","level":"info"}}`,
				`{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"x","data":{"` + f.Text + `":[1,"` + f.Text + f.Text + `"]}}}`,
				`{"jsonrpc":"2.0","id":3,"result":{"log":` + string(nested) + `}}`,
			}
			for _, fr := range frames {
				out := r.Frame([]byte(fr))
				assertClean(t, v+" as "+f.Writer, out, enc)
				if !json.Valid(out) {
					t.Errorf("%s as %s: redacted frame is not JSON: %s", v, f.Writer, out)
				}
				if !bytes.Contains(out, []byte(redact.Placeholder)) {
					t.Errorf("%s as %s: no placeholder in %s", v, f.Writer, out)
				}
			}
		}
	}
	out := string(r.Frame([]byte(`{"m":"before ` + unicodeEscaped(values[0]) + ` after"}`)))
	if out != `{"m":"before [redacted] after"}` {
		t.Errorf("surrounding text lost: %s", out)
	}
}

// TestFrameSecretAcrossStructure: a value that is JSON syntax itself (split
// over a key and its value, or a number) is not in any one string; the raw
// bytes are still replaced.
func TestFrameSecretAcrossStructure(t *testing.T) {
	r := redact.New()
	r.Add(`key":"val`, "31415926")
	for _, fr := range []string{`{"key":"val"}`, `{"id":31415926,"x":"ok"}`} {
		out := string(r.Frame([]byte(fr)))
		if strings.Contains(out, `key":"val`) || strings.Contains(out, "31415926") || !strings.Contains(out, redact.Placeholder) {
			t.Errorf("%s -> %s", fr, out)
		}
	}
}

// TestTextRedactsEveryForm: free text (a stderr line, an error message) that
// carries a value raw or as any real encoder writes it is redacted; a line
// without one is returned unchanged.
func TestTextRedactsEveryForm(t *testing.T) {
	values := redacttest.Values(t)
	enc := redacttest.Encodings(t, values)
	r := redact.New()
	r.Add(values...)
	upperHex := regexp.MustCompile(`\\u[0-9a-f]{4}`)
	for _, v := range values {
		forms := append([]redacttest.Encoding{}, enc[v]...)
		for _, f := range enc[v] {
			if !f.JSONForm() {
				continue
			}
			// JSON writers seen elsewhere: upper-case hex (Java, C#), / as \/ (PHP).
			forms = append(forms,
				redacttest.Encoding{Writer: f.Writer + "+upper-hex", Text: upperHex.ReplaceAllStringFunc(f.Text, func(u string) string { return `\u` + strings.ToUpper(u[2:]) })},
				redacttest.Encoding{Writer: f.Writer + "+slash", Text: strings.ReplaceAll(f.Text, "/", `\/`)})
		}
		for _, f := range forms {
			line := "level=error msg=" + f.Text + " tail"
			out := r.Text(line)
			assertClean(t, v+" as "+f.Writer, []byte(out), enc)
			if strings.Contains(out, f.Text) {
				t.Errorf("%s as %s kept: %q", v, f.Writer, out)
			}
			if !strings.HasPrefix(out, "level=error msg=") || !strings.HasSuffix(out, " tail") {
				t.Errorf("context lost: %q", out)
			}
		}
	}
	if got := r.Text("nothing secret here"); got != "nothing secret here" {
		t.Errorf("changed clean text: %q", got)
	}
}

// TestFrameUnchangedWithoutSecret: the common case returns the very frame it
// was given (no copy), with and without escapes, and a Redactor with no
// secrets (or nil) changes nothing.
func TestFrameUnchangedWithoutSecret(t *testing.T) {
	r := redact.New()
	for _, fr := range benchFrames {
		if out := r.Frame(fr); &out[0] != &fr[0] {
			t.Error("no secrets: frame copied")
		}
	}
	var none *redact.Redactor
	if none.Text("x") != "x" || string(none.Frame([]byte(`{}`))) != `{}` {
		t.Error("nil redactor changed its input")
	}
	r.Add(benchSecrets...)
	for name, fr := range benchFrames {
		out := r.Frame(fr)
		if &out[0] != &fr[0] {
			t.Errorf("%s: frame without a secret was rewritten: %s", name, out)
		}
	}
	if r.Len() != len(benchSecrets) {
		t.Errorf("Len %d", r.Len())
	}
	r.Add("", benchSecrets[0])
	if r.Len() != len(benchSecrets) {
		t.Errorf("empty or repeated values counted: %d", r.Len())
	}
}

// TestLeftmostLongest: overlapping values are all hidden, the longer one
// winning where both start.
func TestLeftmostLongest(t *testing.T) {
	r := redact.New()
	r.Add("abc", "abcdef", "def-ghi")
	if got := r.Text("x abcdef-ghi y abc"); got != "x [redacted]-ghi y [redacted]" {
		t.Errorf("got %q", got)
	}
}

// TestNotJSONIsText: a frame that is not JSON (a protocol error) is redacted
// as free text.
func TestNotJSONIsText(t *testing.T) {
	r := redact.New()
	r.Add(`se"cret`)
	if got := string(r.Frame([]byte(`oops se"cret and se\"cret`))); got != "oops [redacted] and [redacted]" {
		t.Errorf("got %q", got)
	}
}

// TestTransformedSecretIsNotFound pins the limit docs/host.md states: a
// value the extension transformed beyond the derived encodings (reversed,
// split into two strings, hashed) is not recognised, and a value the host
// never handed out (an extension's own credential) is not known at all.
func TestTransformedSecretIsNotFound(t *testing.T) {
	r := redact.New()
	r.Add("hunter2-secret")
	for _, s := range []string{
		`{"b64-reversed":"` + base64.StdEncoding.EncodeToString([]byte("terces-2retnuh")) + `"}`,
		`{"reversed":"terces-2retnuh"}`,
		`{"parts":["hunter2","-secret"]}`,
		`{"own":"AKIA-not-handed-out"}`,
	} {
		if got := string(r.Frame([]byte(s))); got != s {
			t.Errorf("%s became %s: the limit moved, update docs/host.md#redaction", s, got)
		}
	}
}
