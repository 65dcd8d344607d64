package bundle_test

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/bundle"
)

// A FIFO named as the archive is refused at once, naming what it is, and the root stays
// usable: opening it would block for a writer while holding the root's lock.
func TestFIFOArchiveRefusedWithoutBlocking(t *testing.T) {
	m := newManager(t)
	fifo := filepath.Join(t.TempDir(), "b.tar.gz")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, op := range []func(string) (*bundle.Record, error){m.Install, m.Update} {
		done := make(chan error, 1)
		go func() { _, err := op(fifo); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, &bundle.Error{Rule: bundle.RuleArchive}) || !contains(err, fifo, "named pipe (FIFO)", "not a regular file") {
				t.Fatalf("FIFO archive: %v", err)
			}
		case <-time.After(10 * time.Second): // a deadline for a hang, not synchronisation
			t.Fatal("the operation blocked on the FIFO")
		}
	}
	if _, err := m.Install(archive(t, good("hello", "1.0.0", filepath.Join(t.TempDir(), "ran")), false)); err != nil {
		t.Fatalf("install after the refusal: %v", err)
	}
}
