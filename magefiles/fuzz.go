//go:build mage

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/magefile/mage/mg"
)

// goFuzzTarget is one testing.F target: its module directory, package and name.
type goFuzzTarget struct{ module, pkg, name string }

// goFuzzTargets are every Go fuzz target (docs/conformance.md, "Fuzzing"). Each one's seed
// corpus, and the crashers kept in its testdata/fuzz/<name>/, also run as ordinary tests.
var goFuzzTargets = []goFuzzTarget{
	{"sdk-go", "./jsonrpc", "FuzzLineReader"},
	{"sdk-go", "./protocol/strictjson", "FuzzParse"},
	{"sdk-go", ".", "FuzzValidatorMatchesOracle"},
	{".", "./codegen/internal/vectors", "FuzzValidators"},
	{".", "./host/manifest", "FuzzParse"},
	{".", "./host/bundle", "FuzzExtract"},
}

// fuzzDiffRegressions are the cross-language cases that once disagreed; every run replays them.
const fuzzDiffRegressions = "codegen/cmd/octet-fuzzdiff/testdata/regressions.jsonl"

// envOr reads a setting from the environment, with a default.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// FuzzQuick is the brief fuzzing `test` runs: OCTET_FUZZTIME (default 3s) of coverage-guided
// fuzzing per Go target, then the cross-language differential on a small corpus. The
// Python and TypeScript property tests run with bounded examples inside their suites.
func FuzzQuick() error {
	if err := fuzzGo(envOr("OCTET_FUZZTIME", "3s"), false); err != nil {
		return err
	}
	return FuzzDiff()
}

// FuzzDiff replays the cross-language regression cases, then judges OCTET_FUZZDIFF_COUNT
// (default 4000) generated documents from seed OCTET_FUZZ_SEED (default 1) with the Go,
// Python and TypeScript decoders and validators; any disagreement fails, printing the input.
func FuzzDiff() error {
	mg.Deps(PythonEnv, BuildTypeScript)
	if err := run(".", nil, "go", "run", "./codegen/cmd/octet-fuzzdiff", "-python", venvBin("python"), "-replay", fuzzDiffRegressions); err != nil {
		return err
	}
	return run(".", nil, "go", "run", "./codegen/cmd/octet-fuzzdiff", "-python", venvBin("python"),
		"-seed", envOr("OCTET_FUZZ_SEED", "1"), "-count", envOr("OCTET_FUZZDIFF_COUNT", "4000"))
}

// Fuzz runs every fuzz target at length: OCTET_FUZZTIME (default 30m) per Go target, the
// cross-language differential for as long with fresh seeds, and the Python (hypothesis) and
// TypeScript (fast-check) properties with OCTET_FUZZ_EXAMPLES (default 200000) examples each.
// A Go crasher is written by go test to the target's testdata/fuzz/<name>/ (commit it: it
// becomes a regression test); a cross-language disagreement is appended to
// codegen/cmd/octet-fuzzdiff/testdata/regressions.jsonl. Every target runs even after one fails.
func Fuzz() error {
	mg.Deps(PythonEnv, BuildTypeScript)
	fuzztime := envOr("OCTET_FUZZTIME", "30m")
	var failed []string
	if err := fuzzGo(fuzztime, true); err != nil {
		failed = append(failed, err.Error())
	}
	if err := fuzzDiffFor(fuzztime); err != nil {
		failed = append(failed, err.Error())
	}
	examples := envOr("OCTET_FUZZ_EXAMPLES", "200000")
	if err := run("sdk-python", []string{"OCTET_FUZZ_EXAMPLES=" + examples}, venvBin("python"), "-m", "pytest", "-q", "tests/test_fuzz.py"); err != nil {
		failed = append(failed, err.Error())
	}
	if err := run("sdk-typescript", []string{"OCTET_FUZZ_EXAMPLES=" + examples}, "node", "--test", "dist/test/fuzz.test.js"); err != nil {
		failed = append(failed, err.Error())
	}
	if len(failed) > 0 {
		return fmt.Errorf("fuzzing found failures:\n%s", strings.Join(failed, "\n"))
	}
	return nil
}

// fuzzGo runs each Go target for fuzztime on one worker (the machine is shared). With
// keepGoing it runs every target and reports all failures at the end.
func fuzzGo(fuzztime string, keepGoing bool) error {
	var failed []string
	for _, t := range goFuzzTargets {
		err := run(t.module, nil, "go", "test", "-run", "^$", "-fuzz", "^"+t.name+"$", "-fuzztime", fuzztime, "-fuzzminimizetime", envOr("OCTET_FUZZ_MINIMIZE", "5s"), "-parallel", envOr("OCTET_FUZZ_WORKERS", "1"), t.pkg)
		if err != nil {
			if !keepGoing {
				return err
			}
			failed = append(failed, fmt.Sprintf("%s %s: %v (the crasher is in %s/%s/testdata/fuzz/%s/)", t.pkg, t.name, err, t.module, strings.TrimPrefix(t.pkg, "./"), t.name))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s", strings.Join(failed, "\n"))
	}
	return nil
}

// fuzzDiffFor runs the differential round after round, a new seed each, until d is spent,
// appending every disagreeing case to the regression file.
func fuzzDiffFor(d string) error {
	dur, err := time.ParseDuration(d)
	if err != nil {
		return fmt.Errorf("OCTET_FUZZTIME: %v", err)
	}
	seed, _ := strconv.ParseUint(envOr("OCTET_FUZZ_SEED", strconv.FormatInt(time.Now().Unix(), 10)), 10, 64)
	var failed []string
	for end := time.Now().Add(dur); time.Now().Before(end); seed++ {
		err := run(".", nil, "go", "run", "./codegen/cmd/octet-fuzzdiff", "-python", venvBin("python"),
			"-seed", strconv.FormatUint(seed, 10), "-count", "20000", "-failures", fuzzDiffRegressions, "-append")
		if err != nil {
			failed = append(failed, fmt.Sprintf("seed %d: %v", seed, err))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("fuzzdiff: %s (the cases were appended to %s)", strings.Join(failed, "; "), fuzzDiffRegressions)
	}
	return nil
}
