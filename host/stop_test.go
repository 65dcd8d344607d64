package host_test

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
)

// Shutdown drains: a call that finishes within the drain window completes; one that would
// outlast it is cancelled; a call arriving after admission stopped is refused at once.
func TestShutdownDrainsThenCancels(t *testing.T) {
	f := newFixture(t)
	// The window the short call is released in; the long call waits all of it out.
	f.opts.ShutdownDrain = 2 * time.Second
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "drain"})})
	if err != nil {
		t.Fatal(err)
	}
	e := h.Extension("drain")
	pid := e.Status().PID
	short, long := make(chan error, 1), make(chan error, 1)
	go func() { _, err := e.CallTool(t.Context(), "hold", nil); short <- err }()
	go func() { _, err := e.CallTool(t.Context(), "slow", []byte(`{"ms":30000}`)); long <- err }()
	waitFor(t, func() bool { return e.Status().Pending == 2 })
	done := make(chan struct{})
	go func() { h.Shutdown(); close(done) }()
	// The short call finishes only once admission has stopped, so it is known to finish
	// inside the drain (a fixed 200 ms sleep could end before the shutdown began, or
	// outlast a short drain on a loaded machine).
	var ue *host.UnavailableError
	waitFor(t, func() bool { _, err := e.CallTool(t.Context(), "echo", nil); return errors.As(err, &ue) })
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil { // fakeext: every hold returns
		t.Fatal(err)
	}
	if err := <-short; err != nil {
		t.Fatalf("call inside the drain window failed: %v", err)
	}
	if err := <-long; !errors.As(err, &ue) || ue.State != "shutting_down" {
		t.Fatalf("call outlasting the drain: %v", err)
	}
	<-done
	if _, err := e.CallTool(t.Context(), "echo", nil); !errors.As(err, &ue) {
		t.Fatalf("call after shutdown: %v", err)
	}
}
