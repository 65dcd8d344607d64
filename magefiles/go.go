package main

import (
	"fmt"
	"strings"
)

// TestGo runs the Go module's tests; sdk-go and host run under the race detector.
func TestGo() error {
	if err := run(".", nil, "go", "test", "-count=1", "./..."); err != nil {
		return err
	}
	return run(".", nil, "go", "test", "-count=1", "-race", "./sdk-go/...")
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
