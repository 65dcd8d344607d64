package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// An uncaught exception keeps its type and message in the tool error, and call prints the
// extension's last stderr lines readably (the traceback as lines, not one escaped JSON
// string) and the path of the full log.
func TestCallReportsAnExtensionFaultReadably(t *testing.T) {
	if _, err := os.Stat("../../../sdk-python/src/octet_extension/__init__.py"); err != nil {
		t.Skip("no Python SDK in this checkout")
	}
	sdk, _ := filepath.Abs("../../../sdk-python/src")
	dir := filepath.Join(t.TempDir(), "keyerr")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"extension.toml": "name = \"keyerr\"\nversion = \"0.1.0\"\napi_version = \"0.4\"\n\n[entrypoint]\ncommand = \"run\"\n\n" +
			"[capabilities]\nread = [" + strconv.Quote(sdk) + "]\n\n[contributes]\ntools = [\"lookup\"]\n",
		"run": "#!/bin/sh\nPYTHONPATH=" + sdk + " exec python3 \"$(dirname \"$0\")/extension.py\"\n",
		"extension.py": "from octet_extension import Extension\n\next = Extension()\n\n\n" +
			"@ext.tool(name=\"lookup\", description=\"d\", parameters={\"type\": \"object\"})\n" +
			"def lookup(args):\n    return {\"x\": 1}[\"customer_id\"]\n\n\next.run()\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	state := t.TempDir()
	code, out, errOut := octetHost(t, "", "call", dir, "lookup", "{}", "--state", state)
	if code != exitFailed {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, `KeyError: 'customer_id'`) {
		t.Errorf("the tool error lost the exception's type or message:\n%s", out)
	}
	for _, want := range []string{
		"  last stderr lines of keyerr:\n",
		"ERROR handler failed",
		"\n        Traceback (most recent call last):\n",
		"\n        KeyError: 'customer_id'\n",
		"  full log: " + filepath.Join(state, "logs", "extensions", "keyerr.log") + "\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, `\n  File`) {
		t.Errorf("the traceback is still an escaped string:\n%s", errOut)
	}
}
