package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// loadAuthor loads the raw fixture under an author's name (not the conformance fixture),
// with the fixtures' [certify] table, in the given mode.
func loadAuthor(t *testing.T, mode string) *conformance.Extension {
	t.Helper()
	ext, err := conformance.LoadExtension(writeExtension(t, t.TempDir(), "go", "author-tools", mode))
	if err != nil {
		t.Fatal(err)
	}
	return ext
}

func certifyTools(t *testing.T, ext *conformance.Extension, checks ...string) (*conformance.Report, string) {
	t.Helper()
	opts := testOptions
	opts.Only = checks
	rep := conformance.Certify(t.Context(), ext, opts)
	var b bytes.Buffer
	_ = conformance.WriteText(&b, rep)
	return rep, b.String()
}

// A tool whose structured_content breaks its own output_schema fails certify, and the
// report names the exact arguments and the command line that replays the call.
func TestToolBreakingItsOutputSchemaFailsCertify(t *testing.T) {
	rep, text := certifyTools(t, loadAuthor(t, "typed-output-break"), "tools.valid_arguments")
	res, _ := rep.Result("tools.valid_arguments")
	if rep.OK() || res.Status != conformance.Fail {
		t.Fatalf("certify passed a tool that breaks its output_schema:\n%s", text)
	}
	for _, want := range []string{`tool "typed" with valid arguments {"count":0,"label":"x"}`, "output_schema", `/structured_content/count`,
		`replay: octet-host call `, ` typed '{"count":0,"label":"x"}'`, `→ {"id":`, "FAIL  typed"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	tools := map[string]conformance.ToolReport{}
	for _, tr := range rep.Tools() {
		tools[tr.Name] = tr
	}
	if tools["typed"].Status != conformance.Fail || tools["echo"].Status != conformance.Pass || tools["echo"].Calls == 0 {
		t.Errorf("per-tool verdicts: typed %s, echo %s with %d calls; want fail, pass with calls", tools["typed"].Status, tools["echo"].Status, tools["echo"].Calls)
	}
}

// A tool that crashes on a boundary value its schema allows (a negative count) fails
// certify with those arguments.
func TestToolCrashingOnABoundaryValueFailsCertify(t *testing.T) {
	rep, text := certifyTools(t, loadAuthor(t, "typed-negative-crash"), "tools.valid_arguments")
	if rep.OK() {
		t.Fatalf("certify passed a tool that crashes on a negative count:\n%s", text)
	}
	for _, want := range []string{`tool "typed" with valid arguments {"count":-`, "connection ended", "exited with code 3", `replay: octet-host call `} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}

// A tool the [certify] table skips is reported skipped with its reason, never passed, in
// text and in JSON; the others are called and counted.
func TestSkippedToolsAreReportedSkipped(t *testing.T) {
	rep, text := certifyTools(t, loadAuthor(t, ""), "tools.valid_arguments", "tools.invalid_arguments")
	if !rep.OK() {
		t.Fatalf("the good raw fixture failed:\n%s", text)
	}
	if !strings.Contains(text, "SKIP  crash ") || !strings.Contains(text, "exits the process by design") {
		t.Errorf("the text report does not show crash skipped with its reason:\n%s", text)
	}
	var b bytes.Buffer
	if err := conformance.WriteJSON(&b, []*conformance.Report{rep}); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Tools []struct {
			Name, Status, Reason  string
			Calls, Passed, Failed int
			Checks                map[string]string
		}
	}
	if err := json.Unmarshal(b.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tr := range js.Tools {
		seen[tr.Name] = true
		switch tr.Name {
		case "crash":
			if tr.Status != "skip" || tr.Calls != 0 || !strings.Contains(tr.Reason, "exits the process") || tr.Checks["tools.valid_arguments"] != "skip" {
				t.Errorf("crash in JSON: %+v; want skipped with its reason and no calls", tr)
			}
		case "typed", "suite_args":
			if tr.Status != "pass" || tr.Calls < 5 || tr.Passed != tr.Calls || tr.Checks["tools.invalid_arguments"] != "pass" {
				t.Errorf("%s in JSON: %+v; want passed with its calls counted", tr.Name, tr)
			}
		}
	}
	if !seen["crash"] || !seen["typed"] || !seen["echo"] {
		t.Errorf("JSON tools %v lack crash, typed or echo", seen)
	}
}

// OnResult receives every result, in report order, as each check finishes (certify's
// text report streams from it).
func TestOnResultStreamsEachCheck(t *testing.T) {
	var got []string
	opts := testOptions
	opts.Only = []string{"handshake.manifest_echo", "tools.valid_arguments", "echo.sequential"}
	var rep *conformance.Report
	opts.OnResult = func(r conformance.Result) {
		got = append(got, r.Check.Name)
	}
	rep = conformance.Certify(t.Context(), loadFixture(t, ""), opts)
	if len(got) != len(rep.Results) {
		t.Fatalf("OnResult saw %v for %d results", got, len(rep.Results))
	}
	for i, r := range rep.Results {
		if got[i] != r.Check.Name {
			t.Errorf("result %d: streamed %s, reported %s", i, got[i], r.Check.Name)
		}
	}
}

// Options.Calls (--calls) bounds the generated calls per tool and check (argsgen's tests
// prove the seed's determinism).
func TestCallsBoundTheGeneratedCalls(t *testing.T) {
	ext := loadFixture(t, "")
	calls := func(n int, seed int64) (int, string) {
		opts := testOptions
		opts.Only, opts.Calls, opts.Seed = []string{"tools.invalid_arguments"}, n, seed
		rep := conformance.Certify(t.Context(), ext, opts)
		res, _ := rep.Result("tools.invalid_arguments")
		if res.Status != conformance.Pass {
			t.Fatalf("tools.invalid_arguments: %s %s", res.Status, res.Detail)
		}
		total := 0
		for _, tr := range rep.Tools() {
			total += tr.Calls
		}
		return total, res.Detail
	}
	if n, _ := calls(2, 1); n != 4 {
		t.Errorf("--calls 2 made %d invalid calls over typed and suite_args, want 4", n)
	}
	if n, _ := calls(50, 1); n <= 10 {
		t.Errorf("--calls 50 made only %d invalid calls", n)
	}
}

// The tools.* checks run the extension in a fresh, empty workspace, removed afterwards: a
// tool called with generated arguments cannot change the author's directory (certify's
// ordinary opening, like the other checks, keeps the extension's directory).
func TestToolCallsRunInAScratchWorkspace(t *testing.T) {
	dir := writeExtension(t, t.TempDir(), "go", "author-tools", "")
	logPath := filepath.Join(t.TempDir(), "workspaces.log")
	script := "#!/bin/sh\necho \"$OCTET_WORKSPACE\" >> " + logPath + "\nexec " + rawFixture + "\n"
	if err := os.WriteFile(filepath.Join(dir, "start.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(dir, "extension.toml"))
	changed := strings.Replace(string(manifest), fmt.Sprintf("command = %q", rawFixture), `command = "./start.sh"`, 1)
	// The launcher logs outside its own places and runs the raw fixture from where it was
	// built: it declares both, for the sandbox.
	changed = strings.Replace(changed, "[capabilities]\n", fmt.Sprintf("[capabilities]\nread = [%q]\nwrite = [%q]\n", filepath.Dir(rawFixture), filepath.Dir(logPath)), 1)
	if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	ext, err := conformance.LoadExtension(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep, text := certifyTools(t, ext, "tools.valid_arguments"); !rep.OK() {
		t.Fatalf("certify:\n%s", text)
	}
	raw, _ := os.ReadFile(logPath)
	lines := strings.Fields(string(raw))
	if len(lines) < 2 || lines[0] != ext.Dir {
		t.Fatalf("workspaces %v: want the extension's directory for the opening, then the check's", lines)
	}
	for _, w := range lines[1:] {
		if w == ext.Dir {
			t.Errorf("a tools.* session ran with the extension's directory as its workspace")
		}
		if _, err := os.Stat(w); err == nil {
			t.Errorf("the scratch workspace %s was not removed", w)
		}
	}
}
