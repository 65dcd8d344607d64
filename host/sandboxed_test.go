package host_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/sandbox"
)

// Status says whether each extension runs confined and what it asks for, so status and the
// inspector can show it; an operator's opt-out shows as such.
func TestStatusShowsSandboxAndPermissions(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	for _, off := range []bool{false, true} {
		f := newFixture(t)
		if off {
			f.unconfined()
		}
		h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "seen", Extra: "[capabilities]\nfilesystem = \"none\"\n"})})
		if err != nil {
			t.Fatal(err)
		}
		st := h.Extension("seen").Status()
		want := "enforced: filesystem none, network none"
		if off {
			want = "off (operator opt-out)"
		}
		if !strings.HasPrefix(st.Sandbox, want) {
			t.Errorf("unconfined=%v: Sandbox = %q, want %q", off, st.Sandbox, want)
		}
		if !strings.HasPrefix(st.Permissions, "filesystem none; network none") {
			t.Errorf("Permissions = %q", st.Permissions)
		}
		h.Shutdown()
	}
}
