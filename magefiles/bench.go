//go:build mage

package main

// Bench measures every SDK against its language's floor, the MCP SDK of the same
// language and go-plugin, and rewrites docs/benchmarks.md and bench/results/. It
// installs what it needs under bench/.work/ (a venv with the MCP Python SDK, the MCP
// TypeScript SDK from its lock file, Go peers from bench/go.mod) and takes under ten
// minutes on two cores. Not part of Test: the numbers depend on the machine.
// -mod=mod lets bench/go.mod follow dependencies the main module adds later (it
// replaces the main module with ../, so it inherits them).
// OCTET_BENCH_COMMAND tells the harness which command started it, for the page's
// Reproduce section.
func Bench() error {
	return run("bench", []string{"OCTET_BENCH_COMMAND=go run mage.go bench"}, "go", "run", "-mod=mod", "./cmd/octet-bench")
}

// BenchQuick is Bench with fewer calls and repetitions, for iterating on the harness
// or an SDK's hot path; its numbers are rougher.
func BenchQuick() error {
	return run("bench", []string{"OCTET_BENCH_COMMAND=go run mage.go benchQuick"}, "go", "run", "-mod=mod", "./cmd/octet-bench", "-quick")
}
