package conformance

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/octet-kit/octet/host/sandbox"
)

// The sandbox's denials, proven against the extension's own runtime: the fixture's
// sandbox_probe tool (docs/design/fixture.md) tries a read, a write or a connect the check
// names, and the check looks for the evidence itself (inotify on the target, its own
// listeners), so a probe that claims a denial it did not meet is caught. The targets lie in
// a fresh directory of the check's own beside the host's temp files: outside the
// extension's directory, the workspace, its scratch and state and the runtime's paths,
// which is what an extension that declares nothing may reach.

func init() {
	for _, c := range []*Check{{
		Name:        "sandbox.read_denied",
		Description: "the extension cannot open a file outside its declared places (its directory, the workspace, scratch and state, its runtime and capabilities.read)",
		Run:         checkReadDenied,
	}, {
		Name:        "sandbox.write_denied",
		Description: "the extension cannot create a file outside its declared places (scratch, state, the workspace and capabilities.write)",
		Run:         checkWriteDenied,
	}, {
		Name:        "sandbox.connect_denied",
		Description: "as declared, and under a connect allowlist naming another port, neither a TCP connection to an unlisted port nor a UDP datagram reaches the check's loopback listeners",
		Run:         checkConnectDenied,
	}, {
		Name:        "sandbox.declared_allowed",
		Description: "a path declared to read and one declared to write are readable and writable, and a declared host:port is reachable while another port stays closed",
		Run:         checkDeclaredAllowed,
	}} {
		c.Requirement = "docs/sandbox.md#what-an-extension-may-do (issue 26: the manifest is the policy, the kernel enforces it)"
		c.Tier, c.Tools = Conditional, []string{"sandbox_probe"}
		register(c)
	}
}

// probeReport is sandbox_probe's structured_content.
type probeReport struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Data   string `json:"data"`
	Count  int    `json:"count"`
}

func (t *T) probe(s *Session, op, target string, n int) (probeReport, error) {
	var r probeReport
	resp, err := t.toolCall(s, "sandbox_probe", map[string]any{"op": op, "target": target, "n": n})
	if err != nil {
		return r, err
	}
	return r, structured(resp, &r)
}

// confinable skips where the platform has no sandbox to prove.
func confinable() error {
	if _, err := os.Stat("/proc/self/ns/user"); err != nil {
		return skip("no /proc namespaces on this platform")
	}
	return nil
}

// privateDir is a fresh directory of the check's, removed when the check ends.
func (t *T) privateDir() (string, func(), error) {
	dir, err := os.MkdirTemp("", "octet-sandbox-check-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

func token() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func checkReadDenied(t *T) error {
	if err := confinable(); err != nil {
		return err
	}
	if t.Ext.Manifest.Capabilities.Filesystem == sandbox.FilesystemUnrestricted {
		return skip("capabilities.filesystem is unrestricted: no path is undeclared")
	}
	dir, done, err := t.privateDir()
	if err != nil {
		return err
	}
	defer done()
	secret, target := token(), filepath.Join(dir, "secret")
	if err := os.WriteFile(target, []byte(secret), 0o644); err != nil {
		return err
	}
	w, err := watchPath(target)
	if err != nil {
		return err
	}
	defer w.close()
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	r, err := t.probe(s, "read", target, 0)
	if err != nil {
		return err
	}
	if w.touched() || strings.Contains(r.Data, secret) {
		return fail("opening "+target+" (declared nowhere) denied", "the extension opened it (its probe reported ok=%v %q)", r.OK, r.Detail)
	}
	t.Note("denied: %s", r.Detail)
	return nil
}

func checkWriteDenied(t *T) error {
	if err := confinable(); err != nil {
		return err
	}
	if t.Ext.Manifest.Capabilities.Filesystem == sandbox.FilesystemUnrestricted {
		return skip("capabilities.filesystem is unrestricted: no path is undeclared")
	}
	dir, done, err := t.privateDir()
	if err != nil {
		return err
	}
	defer done()
	w, err := watchPath(dir)
	if err != nil {
		return err
	}
	defer w.close()
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	target := filepath.Join(dir, "written")
	r, err := t.probe(s, "write", target, 0)
	if err != nil {
		return err
	}
	if _, statErr := os.Lstat(target); statErr == nil || w.touched() {
		return fail("creating "+target+" (declared nowhere) denied", "the extension created it (its probe reported ok=%v %q)", r.OK, r.Detail)
	}
	t.Note("denied: %s", r.Detail)
	return nil
}

// listeners are a loopback TCP listener and UDP socket of the check's.
type listeners struct {
	tcp net.Listener
	udp net.PacketConn
}

func listen() (*listeners, error) {
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		tcp.Close()
		return nil, err
	}
	return &listeners{tcp: tcp, udp: udp}, nil
}

func (l *listeners) close() { l.tcp.Close(); l.udp.Close() }

// accepted reports whether a connection reached the listener. A connect that succeeded
// completed its handshake before the probe answered, so it is queued already; the short
// deadline only bounds the look.
func (l *listeners) accepted(within time.Duration) (string, bool) {
	_ = l.tcp.(*net.TCPListener).SetDeadline(time.Now().Add(within))
	c, err := l.tcp.Accept()
	if err != nil {
		return "", false
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(within))
	b := make([]byte, 16)
	n, _ := c.Read(b)
	return string(b[:n]), true
}

// received reports whether a datagram reached the UDP socket (queued by the send itself).
func (l *listeners) received(within time.Duration) bool {
	_ = l.udp.SetReadDeadline(time.Now().Add(within))
	b := make([]byte, 16)
	n, _, err := l.udp.ReadFrom(b)
	return err == nil && n > 0
}

func checkConnectDenied(t *T) error {
	if err := confinable(); err != nil {
		return err
	}
	caps := t.Ext.Manifest.Capabilities
	if caps.Network && len(caps.Connect) == 0 {
		return skip("capabilities.network is true with no capabilities.connect: every destination is declared")
	}
	l, err := listen()
	if err != nil {
		return err
	}
	defer l.close()
	listed, err := listen()
	if err != nil {
		return err
	}
	defer listed.close()
	// As declared, then under an allowlist naming another port of the check's: neither TCP
	// to an unlisted port nor UDP (to any port, the listed one too) may arrive.
	for _, grant := range []*Grant{nil, {Connect: []string{listed.tcp.Addr().String()}}} {
		s, _, err := t.Open(InitOptions{Grant: grant})
		if err != nil {
			return err
		}
		how := "as declared"
		if grant != nil {
			how = "under the allowlist " + grant.Connect[0]
		}
		tcpAddr := l.tcp.Addr().String()
		r, err := t.probe(s, "connect", tcpAddr, 0)
		if err != nil {
			return err
		}
		if _, ok := l.accepted(200 * time.Millisecond); ok {
			return fail("a TCP connect to "+tcpAddr+" denied "+how, "the connection reached the check's listener (the probe reported ok=%v %q)", r.OK, r.Detail)
		}
		t.Note("tcp %s: %s", how, r.Detail)
		for _, dst := range []*listeners{l, listed} {
			udpAddr := dst.udp.LocalAddr().String()
			if r, err = t.probe(s, "udp", udpAddr, 0); err != nil {
				return err
			}
			if dst.received(200 * time.Millisecond) {
				return fail("a UDP datagram to "+udpAddr+" denied "+how, "it reached the check's socket (the probe reported ok=%v %q)", r.OK, r.Detail)
			}
		}
		t.Note("udp %s: %s", how, r.Detail)
		s.Kill(time.Second)
	}
	return nil
}

func checkDeclaredAllowed(t *T) error {
	if err := confinable(); err != nil {
		return err
	}
	readDir, done, err := t.privateDir()
	if err != nil {
		return err
	}
	defer done()
	writeDir, done2, err := t.privateDir()
	if err != nil {
		return err
	}
	defer done2()
	secret := token()
	if err := os.WriteFile(filepath.Join(readDir, "declared"), []byte(secret), 0o644); err != nil {
		return err
	}
	allowed, err := listen()
	if err != nil {
		return err
	}
	defer allowed.close()
	other, err := listen()
	if err != nil {
		return err
	}
	defer other.close()
	grant := &Grant{Read: []string{readDir}, Write: []string{writeDir}, Connect: []string{allowed.tcp.Addr().String()}}
	s, _, err := t.Open(InitOptions{Grant: grant})
	if err != nil {
		return err
	}
	r, err := t.probe(s, "read", filepath.Join(readDir, "declared"), 0)
	if err != nil {
		return err
	}
	if !r.OK || r.Data != secret {
		return fail("the declared read path readable", "the probe read %q (ok=%v %q)", r.Data, r.OK, r.Detail)
	}
	target := filepath.Join(writeDir, "written")
	if r, err = t.probe(s, "write", target, 0); err != nil {
		return err
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "octet-probe" {
		return fail("the declared write path writable", "no file %s holding \"octet-probe\" (probe ok=%v %q)", target, r.OK, r.Detail)
	}
	if r, err = t.probe(s, "connect", allowed.tcp.Addr().String(), 0); err != nil {
		return err
	}
	if got, ok := allowed.accepted(t.Timeout()); !ok || got != "probe\n" {
		return fail("a connection to the declared "+allowed.tcp.Addr().String(), "none arrived (probe ok=%v %q)", r.OK, r.Detail)
	}
	if r, err = t.probe(s, "connect", other.tcp.Addr().String(), 0); err != nil {
		return err
	}
	if _, ok := other.accepted(200 * time.Millisecond); ok {
		return fail(fmt.Sprintf("a connect to %s, a port capabilities.connect does not list, denied", other.tcp.Addr()), "it reached the check's listener")
	}
	return nil
}
