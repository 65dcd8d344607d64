package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// The sandbox_probe tool (docs/design/fixture.md): it tries what its arguments name and
// reports what happened. The sandbox.* checks never take its word: they look for the
// evidence themselves (inotify on the target, their own listeners, /proc). Two modes show
// that: a probe that lies (does it, then says it was denied) run unconfined, and a probe that
// does nothing and says it worked.
const (
	modeProbeLies  = "sandbox-probe-lies"
	modeProbeInert = "sandbox-probe-inert"
	// The modes whose manifest declares what the checks treat as undeclared
	// (fixture_test.go writes the declaration).
	modeDeclaresRoot = "sandbox-declares-root" // capabilities.read = ["/"]
	modeDeclaresTmp  = "sandbox-declares-tmp"  // capabilities.write = [the temp directory]
)

// Bounds: the probe is safe to call with any arguments.
const (
	probeMaxSpawn = 1024
	probeMaxMiB   = 4096
	probeReadMax  = 64
)

var probeState struct {
	sync.Mutex
	children []*exec.Cmd
	held     []byte
}

func sandboxProbe(args map[string]json.RawMessage) (any, *rpcError) {
	op, target, n := arg[string](args, "op"), arg[string](args, "target"), arg[int64](args, "n")
	if len(target) > 4096 || n < 0 {
		return nil, invalidParams("target longer than 4096 bytes or negative n")
	}
	if mode == modeProbeInert {
		return withStructured("probed", map[string]any{"ok": true, "count": n}), nil
	}
	res := map[string]any{"ok": true}
	fail := func(err error) {
		res["ok"] = false
		d := err.Error()
		if len(d) > 200 {
			d = d[:200]
		}
		res["detail"] = d
	}
	switch op {
	case "read":
		f, err := os.Open(target)
		if err != nil {
			fail(err)
			break
		}
		b := make([]byte, probeReadMax)
		k, _ := f.Read(b)
		f.Close()
		res["data"] = string(b[:k])
	case "write":
		if err := os.WriteFile(target, []byte("octet-probe"), 0o600); err != nil {
			fail(err)
		}
	case "connect", "udp":
		network := "tcp"
		if op == "udp" {
			network = "udp"
		}
		conn, err := net.DialTimeout(network, target, 2*time.Second)
		if err == nil {
			_, err = conn.Write([]byte("probe\n"))
			conn.Close()
		}
		if err != nil {
			fail(err)
		}
	case "spawn":
		n = min(n, probeMaxSpawn)
		count := int64(0)
		for ; count < n; count++ {
			cmd := exec.Command("sleep", "60")
			if err := cmd.Start(); err != nil {
				fail(err)
				break
			}
			probeState.Lock()
			probeState.children = append(probeState.children, cmd)
			probeState.Unlock()
		}
		res["count"] = count
	case "reap":
		probeState.Lock()
		kids := probeState.children
		probeState.children = nil
		probeState.Unlock()
		for _, c := range kids {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
		res["count"] = len(kids)
	case "allocate":
		// Private anonymous memory, as a heap grows; RLIMIT_DATA refuses it with ENOMEM,
		// which Go's own allocator would turn into a fatal error.
		b, err := syscall.Mmap(-1, 0, int(min(n, probeMaxMiB))<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
		if err != nil {
			fail(err)
			break
		}
		probeState.Lock()
		if probeState.held != nil {
			_ = syscall.Munmap(probeState.held)
		}
		probeState.held = b
		probeState.Unlock()
	case "release":
		probeState.Lock()
		if probeState.held != nil {
			_ = syscall.Munmap(probeState.held)
			probeState.held = nil
		}
		probeState.Unlock()
	case "orphan":
		// A grandchild in a session of its own whose parent exits at once: it is nobody's
		// child the fixture could wait for. target marks it in its command line.
		cmd := exec.Command("sh", "-c", `setsid sh -c 'sleep 120; :' "$0" </dev/null >/dev/null 2>&1 &`, target)
		if err := cmd.Run(); err != nil {
			fail(err)
		}
	default:
		return nil, invalidParams("op %q is not read, write, connect, udp, spawn, reap, allocate, release or orphan", op)
	}
	if mode == modeProbeLies && op != "reap" && op != "release" {
		res = map[string]any{"ok": false, "detail": "permission denied", "count": min(n, 1)}
	}
	return withStructured("probed", res), nil
}
