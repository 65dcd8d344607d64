package gateway

import (
	"context"
	"testing"
	"time"
)

// TestResultWaitsForProgressReadBeforeIt: a result holds until every progress frame read
// before it was handled, and no longer. Without the wait, waitProgress returns at once and
// the first select below sees it.
func TestResultWaitsForProgressReadBeforeIt(t *testing.T) {
	c := &call{}
	c.progressRead()
	c.progressRead()
	returned := make(chan struct{})
	go func() {
		c.waitProgress(context.Background())
		close(returned)
	}()
	c.progressDone()
	select {
	case <-returned:
		t.Fatal("the result went out with one progress notification still unsent")
	case <-time.After(50 * time.Millisecond): // the bound of a negative check, not synchronisation
	}
	c.progressDone()
	select {
	case <-returned:
	case <-time.After(progressDrain / 2):
		t.Fatal("the result still waits after every progress notification was sent")
	}
	// Nothing pending: no wait at all.
	start := time.Now()
	c.waitProgress(context.Background())
	if time.Since(start) > progressDrain/2 {
		t.Fatal("a result with no pending progress waited")
	}
}
