package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// An extension that ignores $/cancelRequest has its generation ended after CancelGrace: the
// call returns at once (cancelled), and the generation goes to backoff with a
// non_cooperative reason, its process group terminated. A cooperative extension (the same
// fakeext without -ignore-cancel) answers -32800 and keeps its generation (calls after the
// cancel are served by generation 1).
func TestNonCooperativeCancellationEndsTheGeneration(t *testing.T) {
	for _, ignore := range []bool{true, false} {
		name := map[bool]string{true: "ignores", false: "cooperates"}[ignore]
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.opts.CancelGrace = 200 * time.Millisecond
			start := time.Now()
			f.opts.Logf = func(format string, a ...any) { t.Logf("%s "+format, append([]any{time.Since(start)}, a...)...) }
			events := make(chan host.Event, 16)
			f.opts.OnEvent = func(e host.Event) { events <- e }
			sent := make(chan struct{}, 1)
			answered := make(chan struct{}, 1)
			f.opts.OnFrame = func(_ string, _ int64, dir jsonrpc.Direction, frame []byte) {
				s := string(frame)
				switch {
				case dir == jsonrpc.Outbound && strings.Contains(s, `"method":"tool/call"`) && strings.Contains(s, `"hold"`):
					sent <- struct{}{}
				case dir == jsonrpc.Inbound && strings.Contains(s, `"code":-32800`):
					answered <- struct{}{}
				}
			}
			ext := testext.Ext{Name: "stubborn"}
			if ignore {
				ext.Args = []string{"-ignore-cancel"}
			}
			h, failures, err := f.start([]*discovery.Entry{f.entry(ext)})
			if err != nil || len(failures) > 0 {
				t.Fatalf("start: %v %v", err, failures)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { _, _, err := h.CallTool(ctx, "hold", []byte(`{}`)); done <- err }()
			<-sent
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled call = %v", err)
			}
			if !ignore {
				<-answered
				// The generation serves on: the cancelled call's grace ended with its answer.
				if got, err := call(t, h, "echo", `{"after":"cancel"}`); err != nil || got != `{"after":"cancel"}` {
					t.Fatalf("echo after a cooperative cancel: %q %v", got, err)
				}
				if st := h.Extension("stubborn").Status(); st.State != host.StateReady || st.Generation != 1 {
					t.Fatalf("status after a cooperative cancel: %+v", st)
				}
				return
			}
			deadline := time.After(10 * time.Second)
			for {
				select {
				case e := <-events:
					if e.State != host.StateBackoff {
						continue
					}
					if !strings.Contains(e.Message, host.ReasonNonCooperative) || !strings.Contains(e.Message, "$/cancelRequest") {
						t.Fatalf("backoff reason %q does not classify the end as non-cooperative", e.Message)
					}
					return
				case <-deadline:
					t.Fatalf("the generation was not ended after ignoring $/cancelRequest (grace %s); status %+v", f.opts.CancelGrace, h.Extension("stubborn").Status())
				}
			}
		})
	}
}
