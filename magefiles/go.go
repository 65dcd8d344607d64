//go:build mage

package main

import (
	"fmt"
	"strings"
)

// TestGo runs the Go module's tests, then the transport, SDK and host core again under
// the race detector (the conformance suite and CLI are exercised by Demo instead).
func TestGo() error {
	if err := run(".", nil, "go", "test", "-count=1", "./..."); err != nil {
		return err
	}
	return run(".", nil, "go", "test", "-count=1", "-race", "./sdk-go/...", "./host", "./host/services/...", "./host/store/...")
}

// LintGo fails on unformatted files and go vet findings.
func LintGo() error {
	out, err := output(".", "gofmt", "-l", ".")
	if err != nil {
		return err
	}
	if s := strings.TrimSpace(out); s != "" {
		return fmt.Errorf("gofmt: these files need formatting:\n%s", s)
	}
	return run(".", nil, "go", "vet", "./...")
}

// BenchGo runs the Go transport and SDK benchmarks: echo over real pipes against the
// hand-written floor, nested callbacks, and the artifact round trip.
func BenchGo() error {
	return run(".", nil, "go", "test", "-run", "^$", "-bench", ".", "-benchtime", "3000x", "-count", "1",
		"./sdk-go/jsonrpc", "./sdk-go")
}
