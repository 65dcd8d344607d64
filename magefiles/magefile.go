//go:build mage

// Package main holds the project's build targets, run with `go run mage.go <target>`.
//
// One file per part of the kit: this file has the targets that span everything and
// the small helpers they share; go.go, python.go, typescript.go and schema.go hold
// each part's own steps.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/magefile/mage/mg"
)

// Default is what `go run mage.go` runs with no target.
var Default = Test

// Test runs every test of every language: schema drift and the breaking-change gate,
// gofmt and go vet, codegen goldens and vectors, the Go, Python (with mypy --strict and
// ruff) and TypeScript (type-checked by its strict build) suites, a few seconds of every
// fuzz target and the cross-language differential fuzz (FuzzQuick), the conformance
// matrix, and the fresh-directory test of the release artifacts (dist/).
func Test() error {
	// The Python venv and the TypeScript build come before the Go tests: Go tests start Python
	// and TypeScript extensions (the doc test, the redaction and orphan tests), and nothing
	// may rebuild them while those run.
	return phases("test", []phaseStep{
		{"schema", "drift", Drift},
		{"schema", "breaking", Breaking},
		{"go", "gofmt and go vet", LintGo},
		{"python", "venv", PythonEnv},
		{"typescript", "build", BuildTypeScript},
		{"go", "go test", TestGo},
		{"python", "pytest, mypy, ruff", TestPython},
		{"typescript", "node --test", TestTypeScript},
		{"all", "quick fuzz", FuzzQuick},
		// No tsc --noEmit phase (LintTypeScript): the build phase's tsc -p is the same
		// --strict type-check of the same tsconfig (SDK, tests and examples), and it fails
		// on any type error; running it twice more cost two full type-checks.
		{"all", "demo", Demo},
		{"all", "fresh directory", FreshDir},
	})
}

// Lint runs gofmt and go vet, ruff and mypy --strict, and tsc --noEmit.
func Lint() error {
	mg.SerialDeps(LintGo, LintPython, LintTypeScript)
	return nil
}

// root is the repository's top directory (mage runs targets from it).
func root() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return wd
}

// run runs a command in dir with the inherited output, naming the command on failure.
func run(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = filepath.Join(root(), dir)
	cmd.Stdout = phaseStdout()
	cmd.Stderr = os.Stderr
	cmd.Env = append(os.Environ(), env...)
	if mg.Verbose() {
		fmt.Fprintf(os.Stderr, "+ (%s) %s %s\n", dir, name, strings.Join(args, " "))
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s (in %s): %w", name, strings.Join(args, " "), dir, err)
	}
	return nil
}

// output runs a command in dir and returns its standard output.
func output(dir string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = filepath.Join(root(), dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s (in %s): %w", name, strings.Join(args, " "), dir, err)
	}
	return string(out), nil
}

// exists reports whether a path below the repository root exists.
func exists(rel string) bool {
	_, err := os.Stat(filepath.Join(root(), rel))
	return err == nil
}
