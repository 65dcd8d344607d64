//go:build mage

package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"

	"github.com/magefile/mage/mg"
)

// TypeScriptEnv installs the TypeScript SDK's dev dependencies from its lock file. npm ci
// deletes node_modules and installs it again every time, so a stamp in node_modules records
// the package.json and lock file it was installed from: the same pair skips npm ci (delete
// sdk-typescript/node_modules to force it).
func TypeScriptEnv() error {
	h := sha256.New()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(root(), "sdk-typescript", f))
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	sum := fmt.Sprintf("%x\n", h.Sum(nil))
	stamp := filepath.Join(root(), "sdk-typescript", "node_modules", ".octet-lock-sha256")
	if prev, err := os.ReadFile(stamp); err == nil && string(prev) == sum {
		fmt.Println("sdk-typescript/node_modules is installed from this package.json and package-lock.json: npm ci skipped")
		return nil
	}
	if err := run("sdk-typescript", nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"); err != nil {
		return err
	}
	return os.WriteFile(stamp, []byte(sum), 0o644)
}

// BuildTypeScript compiles the TypeScript SDK with tsc --strict, then every example under
// examples/typescript into its own dist/ (the examples' launchers run dist/extension.js).
func BuildTypeScript() error {
	if !exists("sdk-typescript/package.json") {
		return nil
	}
	mg.Deps(TypeScriptEnv)
	if err := run("sdk-typescript", nil, "npm", "run", "--silent", "build"); err != nil {
		return err
	}
	return buildTypeScriptExamples()
}

// buildTypeScriptExamples links the SDK into examples/typescript/node_modules and compiles
// every example with the SDK's tsc. It is the kit's step, not the package's: the package's
// own scripts build only the package, so a copy of sdk-typescript builds on its own.
func buildTypeScriptExamples() error {
	if err := run("sdk-typescript", nil, "node", "scripts/link-examples.mjs"); err != nil {
		return err
	}
	return run("examples/typescript", nil, "../../sdk-typescript/node_modules/.bin/tsc", "-b", ".")
}

// TestTypeScript builds the SDK and examples and runs node's test runner on the compiled tests
// (units, runtime rules, the conformance fixture over loopback and a child process, examples).
func TestTypeScript() error {
	if !exists("sdk-typescript/package.json") {
		return nil
	}
	mg.Deps(BuildTypeScript)
	return run("sdk-typescript", nil, "npm", "test", "--silent")
}

// LintTypeScript type-checks the SDK, its tests and examples with tsc --strict --noEmit.
func LintTypeScript() error {
	if !exists("sdk-typescript/package.json") {
		return nil
	}
	mg.Deps(TypeScriptEnv)
	if err := run("sdk-typescript", nil, "npm", "run", "--silent", "lint"); err != nil {
		return err
	}
	return buildTypeScriptExamples()
}

// BenchTypeScript prints tool-call round-trip p50/p99 of the TypeScript SDK against a minimal
// hand-written Node JSON-lines echo, both as child processes, calls interleaved.
func BenchTypeScript() error {
	if !exists("sdk-typescript/package.json") {
		return nil
	}
	mg.Deps(BuildTypeScript)
	return run("sdk-typescript", nil, "npm", "run", "--silent", "bench")
}
