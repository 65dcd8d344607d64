package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
)

// sandbox_probe (docs/design/fixture.md): tries the read, write, connect, spawn or
// allocation its arguments name and reports what happened, within fixed bounds. The
// sandbox.* checks look for the evidence themselves; the report only explains it.

var probeState struct {
	sync.Mutex
	children []*exec.Cmd
	held     []byte
}

type probeArgs struct {
	Op     string `json:"op" jsonschema:"enum=read,enum=write,enum=connect,enum=udp,enum=spawn,enum=reap,enum=allocate,enum=release,enum=orphan"`
	Target string `json:"target,omitempty" jsonschema:"maxLength=4096"`
	N      int    `json:"n,omitempty" jsonschema:"minimum=0,maximum=4096"`
}

func registerProbe(ext *octet.Extension) {
	octet.Tool(ext, octet.ToolSpec{Name: "sandbox_probe", Description: "Try one read, write, connect, spawn or allocation and report it"},
		func(ctx context.Context, a probeArgs) (octet.Result, error) {
			return octet.Text("probed").WithStructured(probe(a)), nil
		})
}

func probe(a probeArgs) map[string]any {
	res := map[string]any{"ok": true}
	fail := func(err error) {
		d := err.Error()
		if len(d) > 200 {
			d = d[:200]
		}
		res["ok"], res["detail"] = false, d
	}
	probeState.Lock()
	defer probeState.Unlock()
	switch a.Op {
	case "read":
		f, err := os.Open(a.Target)
		if err != nil {
			fail(err)
			break
		}
		b := make([]byte, 64)
		n, _ := f.Read(b)
		f.Close()
		res["data"] = string(b[:n])
	case "write":
		if err := os.WriteFile(a.Target, []byte("octet-probe"), 0o600); err != nil {
			fail(err)
		}
	case "connect", "udp":
		network := map[string]string{"connect": "tcp", "udp": "udp"}[a.Op]
		c, err := net.DialTimeout(network, a.Target, 2*time.Second)
		if err == nil {
			_, err = c.Write([]byte("probe\n"))
			c.Close()
		}
		if err != nil {
			fail(err)
		}
	case "spawn":
		count := 0
		for ; count < min(a.N, 1024); count++ {
			c := exec.Command("sleep", "60")
			if err := c.Start(); err != nil {
				fail(err)
				break
			}
			probeState.children = append(probeState.children, c)
		}
		res["count"] = count
	case "reap":
		for _, c := range probeState.children {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
		res["count"] = len(probeState.children)
		probeState.children = nil
	case "allocate":
		// Mapped directly: Go's allocator would end the process on a refused heap growth.
		b, err := syscall.Mmap(-1, 0, min(a.N, 4096)<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
		if err != nil {
			fail(err)
			break
		}
		release()
		probeState.held = b
	case "release":
		release()
	case "orphan":
		c := exec.Command("sh", "-c", `setsid sh -c 'sleep 120; :' "$0" </dev/null >/dev/null 2>&1 &`, a.Target)
		if err := c.Run(); err != nil {
			fail(err)
		}
	}
	return res
}

func release() {
	if probeState.held != nil {
		_ = syscall.Munmap(probeState.held)
		probeState.held = nil
	}
}
