//go:build mage

package main

import "github.com/magefile/mage/mg"

// Bench measures every SDK against its language's floor, the MCP SDK of the same
// language and go-plugin, and rewrites docs/benchmarks.md and bench/results/. It
// installs what it needs under bench/.work/ (a venv with the MCP Python SDK, the MCP
// TypeScript SDK from its lock file, Go peers from bench/go.mod) and takes under ten
// minutes on two cores. Not part of Test: the numbers depend on the machine.
// -mod=mod lets bench/go.mod follow dependencies the main module adds later (it
// replaces the main module with ../, so it inherits them).
// OCTET_BENCH_COMMAND tells the harness which command started it, for the page's
// Reproduce section. PythonEnv first: the harness runs every Python target and the bare
// start on the kit's .venv when it exists, else on the system python3, whose baseline
// differs; making it every time keeps runs on one machine comparable.
func Bench() error {
	mg.Deps(PythonEnv)
	return run("bench", []string{"OCTET_BENCH_COMMAND=go run mage.go bench"}, "go", "run", "-mod=mod", "./cmd/octet-bench")
}

// BenchQuick is Bench with fewer calls and repetitions, for iterating on the harness
// or an SDK's hot path; its numbers are rougher.
func BenchQuick() error {
	mg.Deps(PythonEnv)
	return run("bench", []string{"OCTET_BENCH_COMMAND=go run mage.go benchQuick"}, "go", "run", "-mod=mod", "./cmd/octet-bench", "-quick")
}

// BenchPythonHost runs only the latency phase for the Python floor and SDK through the
// reference host, 9 interleaved repetitions (sequential p50 and calls/s with 32 in flight),
// and prints medians and the within-repetition ratios to the floor; nothing under docs/ or
// bench/results/ changes. About a minute; for judging a change to the SDK's hot path. To
// compare against a baseline checkout in the same run, add e.g.
// -compare python:base=/tmp/base/examples/python/conformance-fixture by hand in bench/.
func BenchPythonHost() error {
	return run("bench", nil, "go", "run", "-mod=mod", "./cmd/octet-bench", "-quick", "-skip-setup",
		"-only", "floor-python,octet-python", "-phases", "latency", "-extras=false",
		"-reps", "9", "-calls", "4000", "-tput-calls", "10000", "-doc", "", "-out", ".work/bench-python")
}
