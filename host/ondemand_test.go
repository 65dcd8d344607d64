package host_test

import (
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
)

func TestLazyResidentStartsOnFirstCall(t *testing.T) {
	f := newFixture(t)
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "lazy", Extra: "[runtime]\nlifecycle = \"lazy_resident\"\n"})})
	if err != nil {
		t.Fatal(err)
	}
	e := h.Extension("lazy")
	if st := e.Status(); st.State != host.StateIdle || st.PID != 0 || len(h.Catalog().Tools) != 0 {
		t.Fatalf("lazy extension started early: %+v", st)
	}
	first, err := call(t, h, "pid", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := call(t, h, "pid", `{}`)
	if first != second || e.Status().State != host.StateReady || len(h.Catalog().Tools) == 0 {
		t.Fatalf("lazy extension not resident after activation: %s %s %+v", first, second, e.Status())
	}
}

func TestOneshotRunsOneProcessPerOperation(t *testing.T) {
	f := newFixture(t)
	f.unconfined() // compares host pids with the ones the extension reports, or its family's
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "once", Extra: "[runtime]\nlifecycle = \"oneshot\"\n"})})
	if err != nil {
		t.Fatal(err)
	}
	first, err := call(t, h, "pid", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	second, err := call(t, h, "pid", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	e := h.Extension("once")
	if first == second || e.Status().State != host.StateIdle || e.Status().Generation != 0 {
		t.Fatalf("oneshot reused a process or stayed up: %s %s %+v", first, second, e.Status())
	}
	// A crash during an operation is that operation's transport error; the next starts fresh.
	if _, err := call(t, h, "crash", `{"code":2}`); err == nil {
		t.Fatal("crash not reported")
	}
	if _, err := call(t, h, "echo", `{}`); err != nil {
		t.Fatalf("oneshot after crash: %v", err)
	}
}
