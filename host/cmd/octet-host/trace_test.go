package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/reference"
)

// traceLines parses the --trace lines of a verb's stderr (the lines that are JSON objects;
// warnings and "recorded session" notes are not). A line that starts like a trace line but
// is not valid JSON fails the test.
func traceLines(t *testing.T, stderr string) []reference.TraceLine {
	t.Helper()
	var out []reference.TraceLine
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.HasPrefix(line, `{"time":`) {
			continue
		}
		var l reference.TraceLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("trace line is not JSON: %v\n%s", err, line)
		}
		out = append(out, l)
	}
	return out
}

// --trace is JSON lines: every frame with its direction, time, kind and method (a response
// names the request's method), every service event, and no secret value anywhere, not even
// in a progress event's payload or an echoed argument.
func TestTraceIsJSONLinesWithDirectionTimeAndMethod(t *testing.T) {
	const secret = "trace-json-secret-314"
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "tj", Args: []string{"-feature=request_progress"}})
	sc := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(sc, []byte("[secrets]\n\"api.token\" = \""+secret+"\"\n"), 0o644)
	code, out, errOut := octetHost(t, "", "call", "--trace", "--script", sc, "--state", e.state, "--config", e.config, dir,
		"echo", `{"v":"`+secret+`"}`, "burst", `{"n":3}`)
	if code != exitOK {
		t.Fatalf("call: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, secret) {
		t.Fatalf("the trace leaks the secret:\n%s", errOut)
	}
	lines := traceLines(t, errOut)
	seen := map[string]int{}
	var prev time.Time
	for _, l := range lines {
		at, err := time.Parse(time.RFC3339Nano, l.Time)
		if err != nil {
			t.Fatalf("time %q: %v", l.Time, err)
		}
		if at.Before(prev.Add(-time.Second)) { // written from several goroutines: nearly ordered
			t.Errorf("time goes back: %s after %s", at, prev)
		}
		prev = at
		if l.Extension != "tj" || l.Generation != 1 {
			t.Errorf("line names %s[%d]", l.Extension, l.Generation)
		}
		switch l.Direction {
		case "host->ext", "ext->host":
			if !json.Valid(l.Frame) {
				t.Errorf("frame is not JSON: %s", l.Frame)
			}
		case "event":
		default:
			t.Errorf("direction %q", l.Direction)
		}
		seen[l.Direction+" "+l.Kind+" "+l.Method]++
	}
	for want, n := range map[string]int{
		"host->ext request initialize": 1, "ext->host response initialize": 1,
		"host->ext request tool/call": 2, "ext->host response tool/call": 2,
		"event progress ": 3,
	} {
		if seen[want] != n {
			t.Errorf("%q: %d lines, want %d (all: %v)", want, seen[want], n, seen)
		}
	}
	// The echoed argument came back redacted in the frame.
	if !strings.Contains(errOut, `\"v\":\"[redacted]\"`) {
		t.Errorf("no redacted echo in the trace:\n%s", errOut)
	}
}
