// Package redacttest holds the hostile secret corpus and the independent
// scanner the redaction tests use: the encodings it looks for come from the
// real encoders (Go's encoding/json, python3's json.dumps, node's
// JSON.stringify), never from the redactor under test.
package redacttest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

//go:embed secrets.json
var corpus []byte

// Values are the hostile secret values: quotes, backslashes, < > & and /,
// control characters (NUL included), non-ASCII (é, an emoji, a lone
// combining mark, U+2028/U+2029) and DEL. Each starts or ends with a unique
// ASCII tag so the values never contain one another. The last one is the
// tests' answer to a secret input prompt; the others are broker values.
func Values(t testing.TB) []string {
	t.Helper()
	var v []string
	if err := json.Unmarshal(corpus, &v); err != nil {
		t.Fatalf("redacttest corpus: %v", err)
	}
	return v
}

// Encoding is one form of a value: what wrote it, and the text inside the
// JSON quotes.
type Encoding struct {
	Writer string
	Text   string
}

// Encodings returns every value in the forms of the real encoders: raw, Go
// (HTML-escaping on and off), Python json.dumps (ensure_ascii on and off) and
// JavaScript JSON.stringify; and the quoted forms of free text, Go's %q
// (strconv.Quote, QuoteToASCII) and Python's repr. JSONForm tells them apart. It fails the test when python3 or node is
// missing: the kit's test suite needs both anyway.
func Encodings(t testing.TB, values []string) map[string][]Encoding {
	t.Helper()
	in, _ := json.Marshal(values)
	out := map[string][]Encoding{}
	add := func(writer string, encoded []string) {
		if len(encoded) != len(values) {
			t.Fatalf("%s encoded %d values, want %d", writer, len(encoded), len(values))
		}
		for i, e := range encoded {
			e = strings.TrimSuffix(strings.TrimPrefix(e, `"`), `"`)
			out[values[i]] = append(out[values[i]], Encoding{writer, e})
		}
	}
	var raw, goHTML, goPlain []string
	for _, v := range values {
		raw = append(raw, `"`+v+`"`)
		b, _ := json.Marshal(v)
		goHTML = append(goHTML, string(b))
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v)
		goPlain = append(goPlain, strings.TrimSpace(buf.String()))
	}
	var goQuote, goQuoteASCII []string
	for _, v := range values {
		goQuote = append(goQuote, strconv.Quote(v))
		goQuoteASCII = append(goQuoteASCII, strconv.QuoteToASCII(v))
	}
	add("raw", raw)
	add("go", goHTML)
	add("go-noescapehtml", goPlain)
	add("go-%q", goQuote)
	add("go-quoteascii", goQuoteASCII)
	py := `import json,sys
vals = json.load(sys.stdin)
print(json.dumps([json.dumps(v) for v in vals]))
print(json.dumps([json.dumps(v, ensure_ascii=False) for v in vals]))
print(json.dumps(['"' + repr(v)[1:-1] + '"' for v in vals]))`
	lines := run(t, in, "python3", "-c", py)
	add("python-ensure_ascii", decodeList(t, lines[0]))
	add("python-utf8", decodeList(t, lines[1]))
	add("python-repr", decodeList(t, lines[2]))
	js := `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);console.log(JSON.stringify(v.map(x=>JSON.stringify(x))))})`
	add("javascript", decodeList(t, run(t, in, "node", "-e", js)[0]))
	return out
}

func run(t testing.TB, stdin []byte, name string, args ...string) []string {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Fatalf("%s is not on PATH: the redaction tests need the real encoder", name)
	}
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func decodeList(t testing.TB, line string) []string {
	t.Helper()
	var v []string
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		t.Fatalf("encoder output %q: %v", line, err)
	}
	return v
}

// JSONForm reports whether the encoding is one a JSON string can hold.
func (e Encoding) JSONForm() bool {
	switch e.Writer {
	case "go-%q", "go-quoteascii", "python-repr":
		return false
	}
	return true
}

// TOMLString writes s as a TOML basic string (for a secrets or script file):
// quotes, backslashes and control characters escaped (NUL as \u0000, which
// TOML allows), everything else as is.
func TOMLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Finding is one occurrence of a value found by Scan.
type Finding struct {
	Where, Value, Writer string
}

// Scan counts every occurrence of every value, in every encoding, in hay.
// Distinct encodings that are the same text are counted once.
func Scan(where string, hay []byte, enc map[string][]Encoding) []Finding {
	var found []Finding
	for v, forms := range enc {
		seen := map[string]bool{}
		for _, f := range forms {
			if seen[f.Text] {
				continue
			}
			seen[f.Text] = true
			for n := bytes.Count(hay, []byte(f.Text)); n > 0; n-- {
				found = append(found, Finding{where, v, f.Writer})
			}
		}
	}
	return found
}
