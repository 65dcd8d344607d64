package services_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/redact/redacttest"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// TestKVRefusesBrokeredSecret: a kv.commit whose value or key holds a broker value, raw,
// as each real JSON encoder and each real re-encoder (percent, base64, hex, HTML, \u)
// writes it, nested in an object or inside a longer string, is refused with
// kv_secret_refused naming the write's path, and nothing of the batch is applied (a
// benign write before it stays absent). A value without the secret commits. state.db and
// its WAL then hold no form of the value.
func TestKVRefusesBrokeredSecret(t *testing.T) {
	values := redacttest.Values(t)
	secret := values[1] // quotes-free but with <>&/, so the HTML and percent forms differ from the raw
	dir := t.TempDir()
	sc, err := script.Parse("s.toml", []byte("[secrets]\n\"api.token\" = "+redacttest.TOMLString(secret)+"\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, sc)
	enc := redacttest.Encodings(t, []string{secret})
	for v, forms := range redacttest.DerivedEncodings(t, []string{secret}) {
		enc[v] = append(enc[v], forms...)
	}
	tried := 0
	for _, f := range enc[secret] {
		var inner string
		if f.JSONForm() {
			// The encoded text as a JSON string holds, decoded: what the extension sent.
			if err := json.Unmarshal([]byte(`"`+f.Text+`"`), &inner); err != nil {
				inner = f.Text
			}
		} else {
			inner = f.Text
		}
		for i, value := range []any{inner, map[string]any{"auth": map[string]any{"header": "Bearer " + inner + " end"}}, []any{1, inner}} {
			tried++
			key := fmt.Sprintf("k-%s-%d", f.Writer, i)
			err := e.fails("kv.commit", map[string]any{"preconditions": []any{}, "writes": []any{put("demo", "benign", "ok"), put("demo", key, value)}}, protocol.CodeKVSecretRefused)
			want := strings.ReplaceAll(protocol.MessageKVSecretRefused, "{path}", "writes[1].value")
			var data protocol.KVSecretRefusedData
			if jerr := json.Unmarshal(err.Data, &data); jerr != nil || err.Message != want || data.Path != "writes[1].value" || data.Key != key || data.Namespace != "demo" {
				t.Fatalf("%s: got %q data %s, want %q", f.Writer, err.Message, err.Data, want)
			}
		}
	}
	// The key itself.
	kerr := e.fails("kv.commit", map[string]any{"preconditions": []any{}, "writes": []any{put("demo", "x-"+secret, 1)}}, protocol.CodeKVSecretRefused)
	if !strings.Contains(kerr.Message, "writes[0].key") || strings.Contains(string(kerr.Data), secret) {
		t.Fatalf("key: %q %s", kerr.Message, kerr.Data)
	}
	var g kvGetRes
	e.ok("kv.get", map[string]any{"namespace": "demo", "key": "benign"}, &g)
	if g.Found {
		t.Fatal("a refused batch applied its benign write")
	}
	e.ok("kv.commit", map[string]any{"preconditions": []any{}, "writes": []any{put("demo", "benign", "the name api.token, not its value")}}, nil)
	e.ok("kv.get", map[string]any{"namespace": "demo", "key": "benign"}, &g)
	if !g.Found {
		t.Fatal("a value without a secret was not stored")
	}
	e.st.Close()
	var found []redacttest.Finding
	matches, _ := filepath.Glob(filepath.Join(e.st.Dir(), "state.db*"))
	for _, p := range matches {
		b, _ := os.ReadFile(p)
		found = append(found, redacttest.Scan(p, b, enc)...)
		found = append(found, redacttest.ScanDecoded(p, b, []string{secret})...)
	}
	for _, f := range found {
		t.Errorf("%s: %q as %s", f.Where, f.Value, f.Writer)
	}
	if tried < 60 || len(matches) == 0 {
		t.Fatalf("tried %d forms, scanned %v", tried, matches)
	}
}
