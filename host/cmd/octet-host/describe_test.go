package main

import (
	"context"
	"fmt"
	"testing"
)

// A call cancelled by SIGINT or SIGTERM is reported as kind cancelled, however the host
// wrapped the context's error (issue 19 finding 6: it was kind other, "context canceled").
func TestCancelledCallHasItsOwnKind(t *testing.T) {
	for _, err := range []error{context.Canceled, fmt.Errorf("tool/call: %w", context.Canceled)} {
		got := describeError(err)
		if got["kind"] != "cancelled" || got["message"] == "context canceled" {
			t.Errorf("%v described as %v, want kind cancelled with a message saying what happened", err, got)
		}
	}
	if got := describeError(fmt.Errorf("boom")); got["kind"] != "other" {
		t.Errorf("an unknown error is %v, want kind other", got)
	}
}
