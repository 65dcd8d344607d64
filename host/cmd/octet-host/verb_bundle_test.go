package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
)

// pythonHelloBundle archives examples/python/hello-world as a bundle of version: its
// extension.py, its manifest with requires_octet added, and a launcher that points at this
// checkout's Python SDK and first creates marker, so any execution is visible.
func pythonHelloBundle(t *testing.T, version, marker string) string {
	t.Helper()
	_, file, _, _ := goruntime.Caller(0)
	kit, _ := filepath.Abs(filepath.Join(filepath.Dir(file), "..", "..", ".."))
	example := filepath.Join(kit, "examples", "python", "hello-world")
	manifest, err := os.ReadFile(filepath.Join(example, "extension.toml"))
	if err != nil {
		t.Skip("examples/python/hello-world is not in this checkout")
	}
	code, err := os.ReadFile(filepath.Join(example, "extension.py"))
	if err != nil {
		t.Fatal(err)
	}
	m := strings.Replace(string(manifest), `version = "0.1.0"`, `version = "`+version+`"`, 1)
	m = strings.Replace(m, "api_version = \"0.4\"\n", "api_version = \"0.4\"\nrequires_octet = \"=0.8.0\"\n", 1)
	// The bundle lives outside the kit: it declares the kit's SDK and interpreter by absolute
	// path, and the marker's directory it touches, for the sandbox.
	m = strings.Replace(m, `read = ["../../../sdk-python/src", "../../../.venv"]`,
		fmt.Sprintf("read = [%q, %q]\nwrite = [%q]", filepath.Join(kit, "sdk-python", "src"), filepath.Join(kit, ".venv"), filepath.Dir(marker)), 1)
	run := "#!/bin/sh\ntouch '" + marker + "'\nkit='" + kit + "'\npython=python3\n" +
		"if [ -x \"$kit/.venv/bin/python\" ]; then python=\"$kit/.venv/bin/python\"; fi\n" +
		"case $0 in */*) here=${0%/*} ;; *) here=. ;; esac\n" +
		"PYTHONPATH=\"$kit/sdk-python/src\" exec \"$python\" \"$here/extension.py\" \"$@\"\n"
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "hello-world/", Typeflag: tar.TypeDir, Mode: 0o755})
	for _, f := range []struct {
		name, body string
		mode       int64
	}{{"extension.toml", m, 0o644}, {"extension.py", string(code), 0o644}, {"run", run, 0o755}} {
		tw.WriteHeader(&tar.Header{Name: "hello-world/" + f.name, Typeflag: tar.TypeReg, Mode: f.mode, Size: int64(len(f.body))})
		tw.Write([]byte(f.body))
	}
	tw.Close()
	zw.Close()
	p := filepath.Join(t.TempDir(), "hello-world-"+version+".tar.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBundleInstallDiscoverCallUpdateRemove(t *testing.T) {
	e := newEnv(t)
	marker := filepath.Join(e.base, "ran")
	config := []byte("# the user's config\nenabled_extensions = []\n")
	os.WriteFile(e.config, config, 0o600)
	v1 := pythonHelloBundle(t, "0.1.0", marker)

	code, out, errOut := octetHost(t, "", "bundle", "install", "--root", e.global, v1)
	if code != 0 || !strings.Contains(out, "installed hello-world 0.1.0 (API 0.4)") || !strings.Contains(out, "not enabled, trusted or started") {
		t.Fatalf("install: %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("install ran the extension's entrypoint")
	}
	if got, _ := os.ReadFile(e.config); !bytes.Equal(got, config) {
		t.Fatalf("install changed the host config:\n%s", got)
	}

	// Discovery finds the bundle in the global root, valid and disabled (nothing enabled it).
	code, out, _ = octetHost(t, "", "list", "--json", "--global-dir", e.global, "--config", e.config, "--workspace", e.base)
	var listed struct {
		Extensions []struct {
			Name, Source, Version string
			Admission             struct{ State string }
		}
		Diagnostics []any
	}
	if code != 0 || json.Unmarshal([]byte(out), &listed) != nil || len(listed.Extensions) != 1 || len(listed.Diagnostics) != 0 {
		t.Fatalf("list: %d %s", code, out)
	}
	if x := listed.Extensions[0]; x.Name != "hello-world" || x.Source != "global" || x.Version != "0.1.0" || x.Admission.State != "disabled" {
		t.Fatalf("discovered %+v", x)
	}

	code, out, _ = octetHost(t, "", "bundle", "list", "--root", e.global, "--json")
	var bundles struct {
		Root    string
		Bundles []struct {
			Name   string
			Record struct{ ID, Version, SHA256, Source string }
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &bundles) != nil || len(bundles.Bundles) != 1 || bundles.Bundles[0].Record.ID != "hello-world" || len(bundles.Bundles[0].Record.SHA256) != 64 {
		t.Fatalf("bundle list --json: %d %s", code, out)
	}
	if code, out, _ = octetHost(t, "", "bundle", "list", "--root", e.global); code != 0 || !strings.Contains(out, "hello-world  0.1.0") {
		t.Fatalf("bundle list: %d %s", code, out)
	}

	code, _, errOut = octetHost(t, "", "bundle", "install", "--root", e.global, v1)
	if code != exitFailed || !strings.Contains(errOut, "hello-world") || !strings.Contains(errOut, "[exists]") {
		t.Fatalf("second install: %d %s", code, errOut)
	}

	// The installed bundle runs once explicitly called (which is when the marker appears).
	if _, err := exec.LookPath("python3"); err == nil {
		code, out, errOut = octetHost(t, "", "call", "--state", e.state, "--config", e.config, filepath.Join(e.global, "hello-world"), "hello_world", `{"name":"Ada"}`)
		if code != 0 || !strings.Contains(out, "Hello, Ada!") {
			t.Fatalf("call the installed bundle: %d\n%s%s", code, out, errOut)
		}
		if _, err := os.Stat(marker); err != nil {
			t.Fatalf("the marker does not show execution: %v", err)
		}
	}

	code, out, errOut = octetHost(t, "", "bundle", "update", "--root", e.global, pythonHelloBundle(t, "0.2.0", marker))
	if code != 0 || !strings.Contains(out, "updated hello-world to 0.2.0") {
		t.Fatalf("update: %d %s%s", code, out, errOut)
	}
	if code, out, _ = octetHost(t, "", "bundle", "remove", "--root", e.global, "--state", e.state, "hello-world"); code != 0 || !strings.Contains(out, "removed hello-world 0.2.0") {
		t.Fatalf("remove: %d %s", code, out)
	}
	if code, _, errOut = octetHost(t, "", "bundle", "remove", "--root", e.global, "--state", e.state, "hello-world"); code != exitFailed || !strings.Contains(errOut, "[not_installed]") {
		t.Fatalf("second remove: %d %s", code, errOut)
	}
	if got, _ := os.ReadFile(e.config); !bytes.Equal(got, config) {
		t.Fatalf("bundle verbs changed the host config:\n%s", got)
	}
}

func TestBundleUsageErrors(t *testing.T) {
	root := t.TempDir()
	for _, args := range [][]string{
		{"bundle"},
		{"bundle", "frobnicate"},
		{"bundle", "install", "--root", root},
		{"bundle", "update", "--root", root, "a.tar.gz", "b.tar.gz"},
		{"bundle", "remove", "--root", root},
		{"bundle", "list", "--root", root, "extra"},
		{"bundle", "list", "--no-such-flag"},
	} {
		if code, _, _ := octetHost(t, "", args...); code != exitStartup {
			t.Errorf("%v: exit %d, want %d", args, code, exitStartup)
		}
	}
	for _, sub := range []string{"install", "update", "remove", "list"} {
		code, out, errOut := octetHost(t, "", "bundle", sub, "--help")
		if code != 0 || !strings.Contains(out+errOut, "Usage: octet-host bundle "+sub) || !strings.Contains(out+errOut, "Examples:") || !strings.Contains(out+errOut, "-root") {
			t.Errorf("bundle %s --help: %d\n%s%s", sub, code, out, errOut)
		}
	}
	code, _, errOut := octetHost(t, "", "bundle", "install", "--root", root, filepath.Join(root, "missing.tar.gz"))
	if code != exitFailed || !strings.Contains(errOut, "missing.tar.gz") || !strings.Contains(errOut, "[archive]") {
		t.Errorf("missing archive: %d %s", code, errOut)
	}
}
