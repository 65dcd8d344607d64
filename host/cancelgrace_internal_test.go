package host

import (
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// A reply can reach the host just before its caller gives up; the $/cancelRequest that
// follows it must not start a grace (no answer will ever come, and the extension did
// nothing wrong). A cancel of a request still open does, and its late answer ends it.
func TestCancelGraceOnlyForOpenRequests(t *testing.T) {
	g := &generation{ext: &Extension{host: &Host{opts: Options{CancelGrace: time.Hour}}}, ended: make(chan struct{})}
	answeredFirst, open := jsonrpc.IntID(1), jsonrpc.IntID(2)
	g.sent(answeredFirst)
	g.sent(open)
	g.answered(answeredFirst)
	g.armCancelGrace(answeredFirst)
	if n := g.cancelPending.Load(); n != 0 {
		t.Fatalf("a cancel after the answer armed %d graces", n)
	}
	g.armCancelGrace(open)
	if n := g.cancelPending.Load(); n != 1 {
		t.Fatalf("a cancel of an open request armed %d graces, want 1", n)
	}
	g.answered(open)
	if n := g.cancelPending.Load(); n != 0 || len(g.cancelling) != 0 || len(g.outstanding) != 0 {
		t.Fatalf("the late answer left %d graces, %d timers, %d outstanding", n, len(g.cancelling), len(g.outstanding))
	}
}
