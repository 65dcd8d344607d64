package host_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
)

// A tool result carrying a byte that is not UTF-8 fails the call with a transport error
// naming it, as the Python and TypeScript SDKs refuse such a frame (issue 19 finding 6: the
// host replaced the byte with U+FFFD and returned the result).
func TestInvalidUTF8InAToolResultFailsTheCall(t *testing.T) {
	f := newFixture(t)
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "bytes"})})
	if err != nil {
		t.Fatal(err)
	}
	got, err := call(t, h, "bad_utf8", `{}`)
	var tr *host.TransportError
	if !errors.As(err, &tr) || !strings.Contains(tr.Reason, "not valid UTF-8") {
		t.Fatalf("the call returned %q, %v; want a transport error naming the invalid UTF-8", got, err)
	}
}
