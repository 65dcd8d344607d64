package sandbox_test

import (
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/sandbox"
)

// Under a connect allowlist only TCP to a listed port leaves: a UDP datagram, even to the
// listed address, is refused at socket(2) and never arrives; the allowlist's host name
// resolves inside without DNS (the hosts file the init mounts).
func TestAllowlistCoversUDPAndNames(t *testing.T) {
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	named := "localhost:" + strings.TrimPrefix(ln.Addr().String(), "127.0.0.1:")
	lines := run(t, e, &sandbox.Request{Filesystem: "workspace", Network: true, Connect: []string{named}},
		"connect="+named, "udp="+udp.LocalAddr().String(), "udp=127.0.0.1:"+strconv.Itoa(port), "mptcp=", "tcpsocket=")
	expect(t, lines, "connect ok", "udp denied", "udp denied", "mptcp denied", "tcpsocket ok")
	_ = udp.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, _, err := udp.ReadFrom(make([]byte, 8)); err == nil {
		t.Errorf("a %d-byte datagram arrived", n)
	}
	// A host name of the allowlist is resolved by the host and found inside, where there is
	// no DNS: the machine's own name, when it resolves to the loopback listener.
	if name, err := os.Hostname(); err == nil {
		if addrs, err := net.LookupHost(name); err == nil && len(addrs) == 1 && addrs[0] == "127.0.0.1" {
			entry := name + ":" + strconv.Itoa(port)
			lines = run(t, e, &sandbox.Request{Filesystem: "workspace", Network: true, Connect: []string{entry}}, "connect="+entry)
			expect(t, lines, "connect ok")
		}
	}
	// The same probes with the network declared open: UDP is declared, so it leaves.
	lines = run(t, e, &sandbox.Request{Filesystem: "workspace", Network: true}, "udp="+udp.LocalAddr().String())
	expect(t, lines, "udp ok")
}

// A connect entry is an IP address or a host name; anything else is refused with the entry
// named, and a name that does not resolve refuses the start.
func TestConnectEntriesChecked(t *testing.T) {
	for _, bad := range []string{"*.example.com:443", "http://x:80", "a b:1", "exa_mple.com:443", "x/y:1", "ä.example:1"} {
		if _, err := sandbox.ParseHostPort(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: %v, want refused", bad, err)
		}
	}
	for _, good := range []string{"api.example.com:443", "127.0.0.1:80", "[::1]:8080", "localhost:1", "*:443"} {
		if _, err := sandbox.ParseHostPort(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
	_, err := sandbox.Build(sandbox.Request{Network: true, Connect: []string{"no-such-host.invalid:443"}})
	if err == nil || !strings.Contains(err.Error(), "capabilities.connect[0]") || !strings.Contains(err.Error(), "cannot resolve no-such-host.invalid") {
		t.Errorf("unresolvable name: %v", err)
	}
}
