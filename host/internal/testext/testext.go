// Package testext builds and lays out the purpose-built test extensions used by the host's
// integration tests. Tests start real processes over real pipes.
package testext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

// Binary builds fakeext once per test process and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(file), "fakeext")
		buildDir, buildErr = os.MkdirTemp("", "fakeext-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "fakeext")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building fakeext: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// Cleanup removes the built binary; call it from TestMain after m.Run.
func Cleanup() {
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
}

// Ext describes one test extension directory.
type Ext struct {
	Name       string
	API        string   // default "0.4"
	Tools      []string // default DefaultTools
	Args       []string // fakeext flags
	Extra      string   // appended to the manifest verbatim (e.g. "[capabilities]\n…")
	CopyBinary bool     // copy fakeext beside the manifest and use a bare command
}

// DefaultTools are the tools fakeext implements.
var DefaultTools = []string{"echo", "slow", "hold", "gather", "crash", "env", "stderr", "spawn", "garbage", "pid", "fail", "rpc_error", "maxconc", "callback", "notes", "bad_utf8", "burst", "flood"}

// Write creates root/<name>/extension.toml for e and returns the extension directory.
func Write(t testing.TB, root string, e Ext) string {
	t.Helper()
	bin := Binary(t)
	dir := filepath.Join(root, e.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	api := e.API
	if api == "" {
		api = "0.4"
	}
	tools := e.Tools
	if tools == nil {
		tools = DefaultTools
	}
	command := bin
	if e.CopyBinary {
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "fakeext"), data, 0o755); err != nil {
			t.Fatal(err)
		}
		command = "fakeext"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "name = %q\nversion = \"1.0.0\"\napi_version = %q\n", e.Name, api)
	fmt.Fprintf(&b, "[entrypoint]\ncommand = %q\nargs = [%s]\n", command, quoteList(e.Args))
	fmt.Fprintf(&b, "[contributes]\ntools = [%s]\n", quoteList(tools))
	b.WriteString(e.Extra)
	if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
