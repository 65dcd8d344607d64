//go:build mage

package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCounterReadsEachToolsSummary feeds the summary lines of go test, pytest, node --test
// and the conformance matrix, split at odd places, and wants them counted per language.
func TestCounterReadsEachToolsSummary(t *testing.T) {
	out := "ok  \tgithub.com/octet-kit/octet/host\t12.3s\n" +
		"FAIL\tgithub.com/octet-kit/octet/host/x\t1.0s\n" +
		"?   \tgithub.com/octet-kit/octet/none\t[no test files]\n" +
		"412 passed, 3 skipped in 20.51s\n" +
		"TAP version 13\nok 1 - runtime rules\n  ---\n  duration_ms: 12.5\n  ...\nnot ok 2 - fixture\n" +
		"# pass 180\n# fail 0\n# skipped 2\n" +
		"  hello-world        go          pass    23      0       44      0       1       23\n" +
		"  hello-world        python      pass    22      0       45      0       1       22\n"
	c := &counter{}
	for i := 0; i < len(out); i += 7 {
		fmt.Fprint(c, out[i:min(i+7, len(out))])
	}
	for lang, want := range map[string]string{
		"go":         "1 packages failed, 1 packages ok, 23 checks passed, 0 checks failed, 44 checks skipped",
		"python":     "0 checks failed, 45 checks skipped, 22 checks passed, 3 skipped, 412 passed",
		"typescript": "0 failed, 180 passed, 2 skipped",
	} {
		got := c.summary(lang)
		for _, part := range strings.Split(want, ", ") {
			if !strings.Contains(", "+got+",", ", "+part+",") {
				t.Errorf("%s: %q lacks %q", lang, got, part)
			}
		}
	}
	if got := c.summary("go"); strings.Contains(got, "2 packages") {
		t.Errorf("node --test's TAP lines were counted as Go packages: %q", got)
	}
	phaseLog = []phaseRun{{lang: "all", name: "demo", took: 3 * time.Second, counts: c}, {lang: "go", name: "vet", took: time.Second, counts: &counter{}}}
	defer func() { phaseLog = nil }()
	var b bytes.Buffer
	printSummary(&b, "test", 4*time.Second)
	if !strings.Contains(b.String(), "test summary (4s in all)") || strings.Count(b.String(), "\ndemo ") != 3 || !strings.Contains(b.String(), "\nvet ") {
		t.Errorf("summary table:\n%s", b.String())
	}
}
