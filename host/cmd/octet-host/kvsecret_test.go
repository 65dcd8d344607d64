package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/redact/redacttest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// TestKVSecretRefusedInEverySDK: an extension in each of Go, Python and TypeScript stores
// a brokered secret in KV the way a careless author would (base64 of "user:" + secret,
// by its own language's encoder) and reports what its SDK raised; all three see the same
// classified error (kv_secret_refused, the registry's message, the write's path), and
// state.db holds no form of the value.
func TestKVSecretRefusedInEverySDK(t *testing.T) {
	values := redacttest.Values(t)
	broker := values[:len(values)-1]
	enc := withDerived(t, broker, redacttest.Encodings(t, broker))
	dir := t.TempDir()
	var secrets strings.Builder
	for i, v := range broker {
		fmt.Fprintf(&secrets, "s%d = %s\n", i+1, redacttest.TOMLString(v))
	}
	sc := filepath.Join(dir, "script.toml")
	os.WriteFile(sc, []byte("[secrets]\n"+secrets.String()), 0o600)
	e := newEnv(t)
	want := fmt.Sprintf("kv refused %d %s writes[0].value", protocol.CodeKVSecretRefused,
		strings.ReplaceAll(protocol.MessageKVSecretRefused, "{path}", "writes[0].value"))
	for lang, ext := range leakyExtensions(t) {
		t.Run(lang, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state")
			code, out, errOut := octetHost(t, "", "call", "--script", sc, "--state", state, "--config", e.config, ext, "leak_kv")
			if code != exitOK || !strings.Contains(out, strings.ReplaceAll(want, `"`, `\"`)) {
				t.Fatalf("exit %d, want %q in\nstdout:\n%s\nstderr:\n%s", code, want, out, errOut)
			}
			scanAll(t, lang+" leak_kv", out, errOut, state, enc)
		})
	}
}
