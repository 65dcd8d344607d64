package redacttest

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// DerivedEncodings returns every value as the real re-encoders write it:
// percent-encoding (Go QueryEscape and PathEscape, Python quote, quote with
// safe="", quote_plus, JavaScript encodeURIComponent and encodeURI), base64
// (standard and URL-safe, padded and not, from Go, Python and node), hex
// (Go, Python, node; also upper case), HTML (Go html.EscapeString, Python
// html.escape, every character as a decimal and a hex reference written by
// Python) and every character as a JSON \u escape (Python). None comes from
// the redactor under test.
func DerivedEncodings(t testing.TB, values []string) map[string][]Encoding {
	t.Helper()
	out := map[string][]Encoding{}
	addOne := func(v, writer, text string) { out[v] = append(out[v], Encoding{writer, text}) }
	for _, v := range values {
		b := []byte(v)
		addOne(v, "go-queryescape", url.QueryEscape(v))
		addOne(v, "go-pathescape", url.PathEscape(v))
		addOne(v, "go-base64", base64.StdEncoding.EncodeToString(b))
		addOne(v, "go-base64-raw", base64.RawStdEncoding.EncodeToString(b))
		addOne(v, "go-base64url", base64.URLEncoding.EncodeToString(b))
		addOne(v, "go-base64url-raw", base64.RawURLEncoding.EncodeToString(b))
		addOne(v, "go-hex", hex.EncodeToString(b))
		addOne(v, "go-hex-upper", strings.ToUpper(hex.EncodeToString(b)))
		addOne(v, "go-html", html.EscapeString(v))
	}
	in, _ := json.Marshal(values)
	py := `import json,sys,base64,binascii,html,urllib.parse as up
vals = json.load(sys.stdin)
forms = {
 "python-quote": lambda v: up.quote(v),
 "python-quote-safe-none": lambda v: up.quote(v, safe=""),
 "python-quote_plus": lambda v: up.quote_plus(v),
 "python-b64": lambda v: base64.b64encode(v.encode()).decode(),
 "python-urlsafe_b64": lambda v: base64.urlsafe_b64encode(v.encode()).decode(),
 "python-hexlify": lambda v: binascii.hexlify(v.encode()).decode(),
 "python-html.escape": lambda v: html.escape(v),
 "python-html-decimal": lambda v: "".join("&#%d;" % ord(c) for c in v),
 "python-html-hex": lambda v: "".join("&#x%x;" % ord(c) for c in v),
 "python-json-all-u": lambda v: (lambda b: "".join("\\u%04x" % int.from_bytes(b[i:i+2], "big") for i in range(0, len(b), 2)))(v.encode("utf-16-be")),
}
print(json.dumps({k: [f(v) for v in vals] for k, f in forms.items()}))`
	var pyForms map[string][]string
	if err := json.Unmarshal([]byte(run(t, in, "python3", "-c", py)[0]), &pyForms); err != nil {
		t.Fatalf("python encoders: %v", err)
	}
	js := `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);const f={
 "javascript-encodeURIComponent": x=>encodeURIComponent(x),
 "javascript-encodeURI": x=>encodeURI(x),
 "node-base64": x=>Buffer.from(x).toString("base64"),
 "node-base64url": x=>Buffer.from(x).toString("base64url"),
 "node-hex": x=>Buffer.from(x).toString("hex")};
const o={};for(const k in f)o[k]=v.map(f[k]);console.log(JSON.stringify(o))})`
	var jsForms map[string][]string
	if err := json.Unmarshal([]byte(run(t, in, "node", "-e", js)[0]), &jsForms); err != nil {
		t.Fatalf("node encoders: %v", err)
	}
	for _, forms := range []map[string][]string{pyForms, jsForms} {
		for writer, encoded := range forms {
			if len(encoded) != len(values) {
				t.Fatalf("%s encoded %d values, want %d", writer, len(encoded), len(values))
			}
			for i, e := range encoded {
				addOne(values[i], writer, e)
			}
		}
	}
	return out
}

// base64Run is a run of base64 text (either alphabet) long enough to hold
// a value.
var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_=-]{6,}`)

// hexRun is a run of hex digits.
var hexRun = regexp.MustCompile(`[0-9A-Fa-f]{6,}`)

// ScanDecoded finds values hidden by an encoding that does not keep byte
// boundaries at fixed places: every run of base64 characters in hay is
// decoded from each of its first four offsets, in both alphabets, and every
// hex run from both nibble offsets; a value found in the decoded bytes is a
// finding. This sees a secret embedded anywhere inside a longer base64
// stream, which a fixed list of encoded forms cannot.
func ScanDecoded(where string, hay []byte, values []string) []Finding {
	var found []Finding
	check := func(decoded []byte, writer string) {
		for _, v := range values {
			for n := bytes.Count(decoded, []byte(v)); n > 0; n-- {
				found = append(found, Finding{where, v, writer})
			}
		}
	}
	for _, run := range base64Run.FindAll(hay, -1) {
		std := []byte(urlToStd.Replace(string(run)))
		for off := range 4 {
			chunk := std[off:]
			chunk = chunk[:len(chunk)/4*4]
			// Each 4-character group decodes on its own, so a bad group (a
			// neighbouring word in the run) spoils only its own 3 bytes.
			var dec []byte
			for i := 0; i+4 <= len(chunk); i += 4 {
				d, err := base64.StdEncoding.DecodeString(string(chunk[i : i+4]))
				if err != nil {
					d = []byte{0, 0, 0}
				}
				dec = append(dec, d...)
			}
			check(dec, "base64 at offset "+string(rune('0'+off)))
		}
	}
	for _, run := range hexRun.FindAll(hay, -1) {
		for off := range 2 {
			chunk := run[off:]
			d, _ := hex.DecodeString(string(chunk[:len(chunk)/2*2]))
			check(d, "hex")
		}
	}
	return found
}

// urlToStd maps the URL-safe alphabet onto the standard one.
var urlToStd = strings.NewReplacer("-", "+", "_", "/")
