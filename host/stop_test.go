package host_test

import (
	"errors"
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
	f.opts.ShutdownDrain = 700 * time.Millisecond
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "drain"})})
	if err != nil {
		t.Fatal(err)
	}
	e := h.Extension("drain")
	short, long := make(chan error, 1), make(chan error, 1)
	go func() { _, err := e.CallTool(t.Context(), "slow", []byte(`{"ms":200}`)); short <- err }()
	go func() { _, err := e.CallTool(t.Context(), "slow", []byte(`{"ms":30000}`)); long <- err }()
	waitFor(t, func() bool { return e.Status().Pending == 2 })
	done := make(chan struct{})
	go func() { h.Shutdown(); close(done) }()
	if err := <-short; err != nil {
		t.Fatalf("call inside the drain window failed: %v", err)
	}
	var ue *host.UnavailableError
	if err := <-long; !errors.As(err, &ue) || ue.State != "shutting_down" {
		t.Fatalf("call outlasting the drain: %v", err)
	}
	<-done
	if _, err := e.CallTool(t.Context(), "echo", nil); !errors.As(err, &ue) {
		t.Fatalf("call after shutdown: %v", err)
	}
}
