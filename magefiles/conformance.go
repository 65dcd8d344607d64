package main

import (
	"os"
	"path/filepath"

	"github.com/magefile/mage/mg"
)

// Demo builds what the examples need (the Python venv, the TypeScript SDK and its
// compiled examples, the Go examples), certifies every example and fixture of every
// language through the reference host, and prints the conformance matrix. It fails
// when any check fails, or when a language ships examples without its fixture.
//
// The heavy checks (2,000 echoes, 32×50, floods) run once per language fixture;
// examples get the checks that bind every extension, which keeps this to about a
// minute on two cores.
func Demo() error {
	if !exists("host/conformance") {
		return nil
	}
	if exists("sdk-python/pyproject.toml") {
		mg.Deps(PythonEnv)
	}
	mg.Deps(BuildTypeScript, BuildGoExamples)
	return run(".", nil, "go", "run", "./host/cmd/octet-host", "certify", "--matrix", "examples")
}

// BuildGoExamples compiles every Go example, so a launcher using `go run` starts
// from the build cache and a compile error fails here with the compiler's message
// rather than as a handshake timeout.
func BuildGoExamples() error {
	dirs, _ := filepath.Glob(filepath.Join(root(), "examples", "go", "*"))
	var pkgs []string
	for _, d := range dirs {
		if goFiles, _ := filepath.Glob(filepath.Join(d, "*.go")); len(goFiles) > 0 {
			rel, _ := filepath.Rel(root(), d)
			pkgs = append(pkgs, "./"+rel)
		}
	}
	if len(pkgs) == 0 {
		return nil
	}
	return run(".", nil, "go", append([]string{"build", "-o", os.DevNull}, pkgs...)...)
}
