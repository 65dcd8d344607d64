package main

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
)

// The documented first command: calling the Go hello-world example prints the greeting.
// The example's launcher builds it on first start; the test builds it first (into the same
// ignored .bin/) so a cold compile on a loaded machine cannot eat the start timeout.
func TestGoHelloWorldExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go example")
	}
	_, file, _, _ := goruntime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "examples", "go", "hello-world")
	if _, err := os.Stat(filepath.Join(dir, "extension.toml")); err != nil {
		t.Skip("examples/go/hello-world is not in this checkout")
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, ".bin", "extension"), ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the example: %v\n%s", err, out)
	}
	e := newEnv(t)
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir, "hello_world", `{"name":"Ada"}`)
	if code != 0 || !strings.Contains(out, "Hello, Ada!") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}
