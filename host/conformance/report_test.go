package conformance_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/conformance"
)

func sampleReport(t *testing.T) *conformance.Report {
	t.Helper()
	pass, _ := conformance.Lookup("echo.sequential")
	failing, _ := conformance.Lookup("cancel.reaches_handler")
	skipped, _ := conformance.Lookup("kv.preconditions")
	return &conformance.Report{
		Extension: "demo", Language: "python", Dir: "/x/demo",
		Results: []conformance.Result{
			{Check: pass, Status: conformance.Pass, Detail: "2000 echoes in 1s", Duration: time.Second},
			{Check: failing, Status: conformance.Fail, Expected: "-32800 within 10s", Detail: "no answer",
				Frames: []string{"  1ms → {\"id\":2}"}, Stderr: []string{"Traceback: boom"}},
			{Check: skipped, Status: conformance.Skip, Detail: "kv was not negotiated"},
		},
	}
}

func TestTextReportShowsFailureEvidence(t *testing.T) {
	var b bytes.Buffer
	if err := conformance.WriteText(&b, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"demo (python) /x/demo",
		"PASS  echo.sequential", "FAIL  cancel.reaches_handler", "SKIP  kv.preconditions",
		"expected: -32800 within 10s", "got:      no answer",
		`→ {"id":2}`, "Traceback: boom",
		"1 passed, 1 failed, 1 skipped",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

func TestJSONReportShape(t *testing.T) {
	var b bytes.Buffer
	if err := conformance.WriteJSON(&b, []*conformance.Report{sampleReport(t)}); err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	keys := []string{}
	for k := range got {
		keys = append(keys, k)
	}
	if len(got) != 8 || got["tools"] == nil || got["extension"] == nil || got["language"] == nil || got["checks"] == nil || got["passed"] == nil || got["failed"] == nil || got["skipped"] == nil || got["errored"] == nil {
		t.Fatalf("keys %v, want exactly extension, language, checks, passed, failed, skipped, errored, tools", keys)
	}
	var checks []map[string]string
	if err := json.Unmarshal(got["checks"], &checks); err != nil || len(checks) != 3 {
		t.Fatalf("checks: %v %s", err, got["checks"])
	}
	if c := checks[1]; c["name"] != "cancel.reaches_handler" || c["status"] != "fail" || c["detail"] != "expected -32800 within 10s; got no answer" {
		t.Errorf("failed check: %v", c)
	}
	if string(got["passed"]) != "1" || string(got["failed"]) != "1" {
		t.Errorf("passed %s failed %s", got["passed"], got["failed"])
	}
	b.Reset()
	if err := conformance.WriteJSON(&b, []*conformance.Report{sampleReport(t), sampleReport(t)}); err != nil {
		t.Fatal(err)
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &arr); err != nil || len(arr) != 2 {
		t.Fatalf("two reports must be a JSON array of two: %v", err)
	}
}

func TestAdvisoryFailureDoesNotFailCertification(t *testing.T) {
	c := &conformance.Check{Name: "x.advice", Tier: conformance.Advisory}
	rep := &conformance.Report{Results: []conformance.Result{{Check: c, Status: conformance.Fail, Detail: "lenient"}}}
	if !rep.OK() || rep.Failed() != 0 {
		t.Fatalf("an advisory failure counted: failed %d", rep.Failed())
	}
	var b bytes.Buffer
	_ = conformance.WriteJSON(&b, []*conformance.Report{rep})
	if !strings.Contains(b.String(), `"status": "warn"`) {
		t.Errorf("an advisory failure must show as warn in JSON:\n%s", b.String())
	}
	b.Reset()
	_ = conformance.WriteText(&b, rep)
	if !strings.Contains(b.String(), "WARN  x.advice") || !strings.Contains(b.String(), "does not fail certification") {
		t.Errorf("an advisory failure must show as WARN in text:\n%s", b.String())
	}
	rep.LoadError = "invalid manifest"
	if rep.OK() {
		t.Fatal("a manifest that did not load must fail")
	}
}

// TestDocsListEveryCheck keeps docs/conformance.md in step with the registry.
func TestDocsListEveryCheck(t *testing.T) {
	doc, err := os.ReadFile("../../docs/conformance.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range conformance.Checks() {
		row := "| `" + c.Name + "` | " + c.Tier.String() + " |"
		if !bytes.Contains(doc, []byte(row)) {
			t.Errorf("docs/conformance.md has no row starting %q", row)
		}
		if c.Description == "" || c.Requirement == "" {
			t.Errorf("check %s needs a description and a requirement reference", c.Name)
		}
	}
}
