//go:build mage

package main

import (
	"path/filepath"

	"github.com/magefile/mage/mg"
)

// venvDir is the project's private Python environment (git-ignored).
const venvDir = ".venv"

func venvBin(name string) string { return filepath.Join(root(), venvDir, "bin", name) }

// PythonEnv creates .venv, installs the Python SDK in editable mode with its dev tools and
// compiles the SDK's bytecode.
func PythonEnv() error {
	if err := makeVenv(); err != nil {
		return err
	}
	if err := run(".", nil, venvBin("python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", "sdk-python[dev]"); err != nil {
		return err
	}
	return compilePythonSDK()
}

// pythonRuntime is all the demo needs of Python: the kit's interpreter (.venv) and the SDK's
// bytecode. The examples' launchers put sdk-python/src on PYTHONPATH and import nothing but
// the standard library besides, so a demo from a fresh clone does not wait for pip to install
// pytest, mypy and ruff; PythonEnv adds them to the same .venv when a target needs them.
func pythonRuntime() error {
	if err := makeVenv(); err != nil {
		return err
	}
	return compilePythonSDK()
}

func makeVenv() error {
	if exists(venvDir + "/bin/python") {
		return nil
	}
	return run(".", nil, "python3", "-m", "venv", venvDir)
}

// compilePythonSDK writes the SDK's bytecode. The examples import the SDK from
// sdk-python/src in a sandbox that cannot write there, so without it every start compiles
// all its modules again: 0.14 s of CPU instead of 0.05 s, ~45 starts per certified example
// (the demo's Python half took twice as long). compileall writes it whatever
// PYTHONDONTWRITEBYTECODE says; a changed source costs only its own module until the next run.
func compilePythonSDK() error {
	return run(".", nil, venvBin("python"), "-m", "compileall", "-q", "sdk-python/src")
}

// TestPython runs pytest, mypy --strict and ruff on the Python SDK.
func TestPython() error {
	if !exists("sdk-python/pyproject.toml") {
		return nil
	}
	mg.Deps(PythonEnv)
	if err := run("sdk-python", nil, venvBin("python"), "-m", "pytest", "-q"); err != nil {
		return err
	}
	return LintPython()
}

// LintPython runs mypy --strict and ruff over the Python SDK.
func LintPython() error {
	if !exists("sdk-python/pyproject.toml") {
		return nil
	}
	mg.Deps(PythonEnv)
	if err := run("sdk-python", nil, venvBin("python"), "-m", "mypy", "--strict", "src"); err != nil {
		return err
	}
	// The typed-tools example is the proof that derived schemas keep mypy's view of the
	// handler's real types (TypedDict in, dataclass out).
	if err := run(".", []string{"MYPYPATH=sdk-python/src"}, venvBin("python"), "-m", "mypy", "--strict", "examples/python/typed-tools/extension.py"); err != nil {
		return err
	}
	return run("sdk-python", nil, venvBin("python"), "-m", "ruff", "check", "src", "tests")
}

// BenchPython prints the Python SDK's tool-call round trip (p50/p99) against a hand-written
// JSON-lines echo, interleaved (sdk-python/bench/roundtrip.py).
func BenchPython() error {
	mg.Deps(PythonEnv)
	return run(".", nil, venvBin("python"), "sdk-python/bench/roundtrip.py")
}
