//go:build mcpprofile

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"

	"github.com/octet-kit/octet/mcp/bridge"
)

// profile, in a build with -tags mcpprofile (the benchmark's, never a bundle's), writes
// octet-mcp's CPU profile and allocation profile to the directory OCTET_MCP_PROFILE
// names when the host shuts the bridge down, with the exact malloc count and bytes in
// mallocs.txt: what the benchmark reads to attribute a bridged call's cost.
// OCTET_MCP_MEMPROFILE_RATE=1 records every allocation (exact counts per call site, at
// the price of a CPU profile dominated by the recording).
func profile(b *bridge.Bridge) {
	if v, err := strconv.Atoi(os.Getenv("OCTET_MCP_GOGC")); err == nil {
		debug.SetGCPercent(v) // an experiment's garbage collector setting
	}
	dir := os.Getenv("OCTET_MCP_PROFILE")
	if dir == "" {
		return
	}
	if os.Getenv("OCTET_MCP_MEMPROFILE_RATE") == "1" {
		runtime.MemProfileRate = 1
	}
	cpu, err := os.Create(filepath.Join(dir, "cpu.pprof"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "octet-mcp: profile:", err)
		return
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		fmt.Fprintln(os.Stderr, "octet-mcp: profile:", err)
		return
	}
	b.Extension().OnShutdown(func(context.Context) {
		pprof.StopCPUProfile()
		cpu.Close()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		_ = os.WriteFile(filepath.Join(dir, "mallocs.txt"), fmt.Appendf(nil, "%d %d\n", ms.Mallocs, ms.TotalAlloc), 0o644)
		if f, err := os.Create(filepath.Join(dir, "allocs.pprof")); err == nil {
			_ = pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	})
}
