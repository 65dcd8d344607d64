package conformance

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteSkippedFoldsIntoOneLineWithReasons(t *testing.T) {
	var skipped []Result
	for range 3 {
		skipped = append(skipped, Result{Status: Skip, Detail: "runs against the conformance fixture"})
	}
	skipped = append(skipped, Result{Status: Skip, Detail: "lifecycle_events was not negotiated"})
	var b bytes.Buffer
	WriteSkipped(&b, skipped)
	got := b.String()
	want := "  SKIP  4 checks: 3 runs against the conformance fixture; 1 lifecycle_events was not negotiated (-v lists them)\n"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	b.Reset()
	WriteSkipped(&b, nil)
	if b.Len() != 0 {
		t.Errorf("nothing skipped printed %q", b.String())
	}
	b.Reset()
	WriteSkipped(&b, skipped[:1])
	if !strings.HasPrefix(b.String(), "  SKIP  1 check: 1 runs") {
		t.Errorf("one skipped: %q", b.String())
	}
}
