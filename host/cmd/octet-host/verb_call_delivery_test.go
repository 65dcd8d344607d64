package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/store"
)

// `call` and the `run` console deliver what a tool wrote before its result: fakeext's
// burst writes 200 $/progress events and the result in one write, and --trace shows all
// 200 accepted, none dropped (docs/host.md "Notification delivery").
func TestCallAndRunDeliverEventsWrittenBeforeResult(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "burst", Args: []string{"-feature=request_progress"}})
	accepted := regexp.MustCompile(`(?m)^\{"time":"[^"]+","direction":"event","extension":"burst","generation":1,"kind":"progress"`)
	code, _, errOut := octetHost(t, "", "call", "--trace", "--state", e.state, "--config", e.config, dir, "burst", `{"n":200}`, "burst", `{"n":200}`)
	if n := len(accepted.FindAllString(errOut, -1)); code != 0 || n != 400 || strings.Contains(errOut, "dropped") {
		t.Fatalf("call: exit %d, %d of 400 progress events accepted\n%.2000s", code, n, errOut)
	}
	code, _, errOut = octetHost(t, "call burst {\"n\":200}\nquit\n", "run", "--trace", "--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "burst", dir)
	if n := len(accepted.FindAllString(errOut, -1)); code != 0 || n != 200 || strings.Contains(errOut, "dropped") {
		t.Fatalf("run: exit %d, %d of 200 progress events accepted\n%.2000s", code, n, errOut)
	}
}

// `call` stores every notification a tool sends before its result: the Go conformance
// fixture sends 10,000 and the state store holds 10,000 once call has exited, with no drop
// reported. The starting commit stored 1,236 (Python 1,312, TypeScript 941), exit 0,
// nothing on stderr. (Drops, which need a drain that runs out, are provoked through the
// reference host with a slower pace: host/reference TestDroppedNotificationsCountedExactly,
// whose Warnf is what call prints on stderr.)
func TestCallStoresEveryNotification(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 10,000 notifications")
	}
	const sent = 10000
	_, file, _, _ := goruntime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "examples", "go", "conformance-fixture")
	build := exec.Command("go", "build", "-o", filepath.Join(dir, ".bin", "extension"), ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the fixture: %v\n%s", err, out)
	}
	e := newEnv(t)
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir, "notify_n", fmt.Sprintf(`{"n":%d,"size":16}`, sent))
	if code != exitOK || !strings.Contains(out, fmt.Sprintf(`"sent":%d`, sent)) || strings.Contains(errOut, "dropped") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	st, err := store.Open(context.Background(), e.state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	notes, err := st.Events(context.Background(), "notification")
	if err != nil {
		t.Fatal(err)
	}
	diags, err := st.Events(context.Background(), "diagnostic")
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != sent || len(diags) != 0 {
		t.Fatalf("%d sent: %d stored, %d diagnostics; want all stored", sent, len(notes), len(diags))
	}
}
