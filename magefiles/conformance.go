//go:build mage

package main

import (
	"path/filepath"

	"github.com/magefile/mage/mg"
)

// Demo builds what the examples need (the Python venv and the SDK's bytecode, the
// TypeScript SDK and its compiled examples, the Go examples), certifies every example and
// fixture of every language through the reference host, and prints the conformance matrix. It fails
// when any check fails, or when a language ships examples without its fixture.
//
// The heavy checks (2,000 echoes, 32×50, floods) run once per language fixture;
// examples get the checks that bind every extension. The matrix certifies one extension
// per CPU at once (certify --jobs), the fixtures first, and prints in directory order. Then it records one session per language and replays it
// (ReplayDemo), which must find no difference.
func Demo() error {
	if !exists("host/conformance") {
		return nil
	}
	steps := []phaseStep{}
	if exists("sdk-python/pyproject.toml") {
		steps = append(steps, phaseStep{"python", "venv and bytecode", pythonRuntime})
	}
	steps = append(steps,
		phaseStep{"typescript", "build SDK and examples", BuildTypeScript},
		phaseStep{"go", "build examples", BuildGoExamples},
		phaseStep{"all", "certify --matrix examples", certifyMatrix},
		phaseStep{"all", "record and replay", ReplayDemo},
	)
	if phaseNested() {
		// Inside Test: the steps are part of its "demo" phase.
		for _, s := range steps {
			mg.SerialDeps(s.target)
		}
		return nil
	}
	return phases("demo", steps)
}

// certifyMatrix certifies every example of every language through the reference host.
func certifyMatrix() error {
	return run(".", nil, "go", "run", "./host/cmd/octet-host", "certify", "--matrix", "examples")
}

// BuildGoExamples compiles every Go example into its .bin/extension, where its run
// launcher looks, so the first start is a no-op rebuild and a compile error fails here
// with the compiler's message rather than as a handshake timeout.
func BuildGoExamples() error {
	dirs, _ := filepath.Glob(filepath.Join(root(), "examples", "go", "*"))
	for _, d := range dirs {
		if goFiles, _ := filepath.Glob(filepath.Join(d, "*.go")); len(goFiles) == 0 {
			continue
		}
		rel, _ := filepath.Rel(root(), d)
		if err := run(".", nil, "go", "build", "-o", filepath.Join(rel, ".bin", "extension"), "./"+rel); err != nil {
			return err
		}
	}
	return nil
}
