package conformance_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/conformance"
)

// rawFixture is the raw-wire fixture binary (testdata/rawfixture), built once.
var rawFixture string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "conformance-test-")
	if err != nil {
		panic(err)
	}
	rawFixture = filepath.Join(dir, "rawfixture")
	build := exec.Command("go", "build", "-o", rawFixture, "./testdata/rawfixture")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building testdata/rawfixture:", err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixtureManifest is docs/design/fixture.md's manifest with the raw fixture as entrypoint.
const fixtureManifest = `name = %q
version = "0.1.0"
api_version = "0.4"
description = "Implements the conformance checks' fixture tools"

[entrypoint]
command = %q
args = [%s]

[capabilities]
secrets = ["fixture.token"]
%s

[contributes]
tools = ["echo", "fail_with", "slow", "ignore_cancel", "progress_n", "print_stdout", "crash", "callback_n",
         "big_result", "publish", "register_dynamic", "unregister_dynamic", "ask", "secret",
         "present", "spawn_child", "kv_commit", "kv_get", "arm_stuck_shutdown", "typed",
         "notify", "contribute", "policy", "kv_list", "agent_op", "suite_args",
         "settings_in_force", "idempotency_key_seen", "sandbox_probe", "replace_dynamic"]
commands = ["fixture_cmd", "slow_cmd"]
hooks = ["before_prompt", "before_tool_call", "after_tool_call"]
ui = ["status"]
context = true
tool_renderers = ["echo"]
notifications = true
confirmations = true
presentation = true

[settings]
type = "object"
[settings.properties.note]
type = "string"
default = "fixture"

# The raw fixture also owns the session, so the owner.* checks run against it (the SDK
# fixtures leave ownership to the session-owner examples).
[session]
owner = true
private_tools = ["echo"]
` + fixtureCertify

// writeExtension writes root/<lang>/<name>/extension.toml running the raw fixture
// in the given mode ("" follows every rule) and returns the directory.
func writeExtension(t testing.TB, root, lang, name, mode string) string {
	t.Helper()
	dir := filepath.Join(root, lang, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	args := ""
	if mode != "" {
		args = fmt.Sprintf("%q", mode)
	}
	body := fmt.Sprintf(fixtureManifest, name, rawFixture, args, capabilityLines(mode))
	if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func loadFixture(t testing.TB, mode string) *conformance.Extension {
	t.Helper()
	dir := writeExtension(t, t.TempDir(), "go", conformance.FixtureName, mode)
	ext, err := conformance.LoadExtension(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ext
}

// testOptions shorten the bounds a broken fixture makes a check wait out.
var testOptions = conformance.Options{AnswerTimeout: 3 * time.Second, Drain: 2 * time.Second}

func TestRawFixturePassesEveryCheck(t *testing.T) {
	ext := loadFixture(t, "")
	rep := conformance.Certify(t.Context(), ext, testOptions)
	var text strings.Builder
	_ = conformance.WriteText(&text, rep)
	t.Log("\n" + text.String())
	if len(rep.Results) != len(conformance.Checks()) {
		t.Fatalf("%d results for %d checks", len(rep.Results), len(conformance.Checks()))
	}
	for _, r := range rep.Results {
		if r.Status != conformance.Pass {
			t.Errorf("check %s: %s, want pass", r.Check.Name, r.Status)
		}
	}
}

// noSandbox in brokenFor runs the check against the good fixture with the host's sandbox
// off (certify --no-sandbox).
const noSandbox = "(host without the sandbox)"

// brokenFor names, for every check, the raw fixture mode that breaks its rule.
var brokenFor = map[string]string{
	"sandbox.confined":                   noSandbox,
	"handshake.manifest_echo":            "handshake-wrong-version",
	"version.refuse_0_3":                 "accept-0.3",
	"version.mismatch_deterministic":     "version-hang",
	"manifest.contribution_mismatch":     "lie-tools",
	"rpc.unknown_method":                 "unknown-method-wrong-code",
	"rpc.invalid_params":                 "no-param-validation",
	"echo.sequential":                    "echo-tired",
	"echo.concurrent":                    "echo-swap",
	"overload.answered":                  "no-overload",
	"cancel.reaches_handler":             "no-cancel",
	"cancel.race_one_answer":             "double-answer",
	"progress.sequence":                  "progress-zero",
	"callback.nested_1000":               "callback-short",
	"errors.verbatim":                    "error-rewrite",
	"result.oversized_refused":           "big-result-written",
	"frame.oversized_closes":             "oversize-hang",
	"stdout.stray_output":                "stdout-garbage",
	"crash.transport_error":              "crash-answers",
	"eof.exit":                           "ignore-eof",
	"shutdown.ack":                       "shutdown-no-ack",
	"shutdown.bounded":                   "shutdown-error-ack",
	"shutdown.self_bounded":              "stuck-shutdown",
	"catalog.revisions":                  "catalog-no-pin",
	"artifacts.integrity":                "artifact-ignore-error",
	"input.correlation":                  "ask-wrong-parent",
	"secrets.allowlist":                  "secret-error-rewrite",
	"presentation.limits":                "present-no-limit",
	"presentation.delivered":             "events-after-result",
	"agents.child_bounds":                "spawn-bad-policy",
	"kv.preconditions":                   "kv-error-rewrite",
	"contributions.shapes":               "contribution-bad-shape",
	"contributions.fixture_command":      "bad-command",
	"lifecycle.notifications":            "lifecycle-answers",
	"host.reference_lifecycle":           "handshake-wrong-version",
	"shutdown.drain":                     "no-admission-stop",
	"rpc.strict_params":                  "lenient-params",
	"negotiate.unknown_required_feature": "accept-unknown-required",
	"rpc.unknown_targets":                "unknown-tool-internal",
	"eof.drain":                          "eof-no-drain",
	"notify.delivered":                   "notify-no-title",
	"contributions.pushed":               "contribute-wrong-placement",
	"policy.decisions":                   "policy-no-redeem",
	"kv.list_pages":                      "kv-list-no-cursor",
	"config.configure_answered":          "configure-no-reason",
	"idempotency.key_accepted":           "idempotency-key-unknown",
	"config.settings_delivered":          "configure-ignored",
	"config.dry_run_changes_nothing":     "dry-run-applies",
	"config.refusal_keeps_old":           "refusal-applies",
	"idempotency.key_delivered":          "idempotency-key-dropped",
	"agents.steering":                    "agent-error-rewrite",
	"cancel.other_methods":               "no-cancel-other",
	"errors.uncaught":                    "uncaught-wrong-code",
	"rpc.strict_json":                    "lenient-json",
	"schema.integral_numbers":            "integral-refused",
	"rpc.nesting_bound":                  "unbounded-nesting",
	"results.host_checked":               "trust-host-results",
	"negotiation.vectors":                "negotiation-lenient",
	"cancel.non_cooperative_terminated":  "honour-cancel",
	"results.checked_by_host":            "result-unknown-field",
	"schema.suite_verdicts":              "suite-lenient",
	"hooks.dispositions_applied":         "hook-ignore",
	"frame.split_writes":                 "frame-per-read",
	"frame.crlf_accepted":                "crlf-refused",
	"frame.bom_refused":                  "bom-accepted",
	"frame.garbage_refused":              "garbage-skipped",
	"frame.blank_line_refused":           "blank-line-skipped",
	"eof.mid_frame":                      "partial-frame-served",
	"overload.burst":                     "no-overload",
	"stdout.backpressure":                "unbounded-writer",
	"state.kv_secret_refused":            "kv-secret-swallowed",
	"state.kv_migration":                 "kv-migration-skipped",
	"owner.exclusive":                    "handshake-wrong-version",
	"owner.hook_fail_closed":             "owner-hook-error",
	"owner.catalog_enforced":             "owner-private-crash",
	"catalog.atomic_replace":             "replace-as-two",
	"interaction.durable":                "ask-unstable",
	"interaction.options":                "options-dropped",
}

// TestEveryCheckCanFail runs each check against the fixture that breaks its rule.
// The runs mostly wait on bounds (a hang is the failure), so they run eight at a time
// rather than at the test runner's GOMAXPROCS-bound parallelism.
func TestEveryCheckCanFail(t *testing.T) {
	checks := conformance.Checks()
	results := make([]conformance.Result, len(checks))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, c := range checks {
		mode, ok := brokenFor[c.Name]
		if !ok {
			t.Errorf("check %s has no broken fixture proving it can fail; add a rawfixture mode", c.Name)
			continue
		}
		opts := testOptions
		if rest, ok := strings.CutPrefix(mode, noSandbox); ok {
			// The sandbox is the host's and the kernel's, not the extension's: no fixture can
			// leave it, so the run that must fail is the host not confining it (with the
			// fixture in the mode after the marker, if any).
			mode, opts.NoSandbox = strings.TrimSpace(rest), true
		}
		ext := loadFixture(t, mode)
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = conformance.RunCheck(t.Context(), c, ext, opts)
		})
	}
	wg.Wait()
	for i, c := range checks {
		res := results[i]
		if res.Check == nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			if res.Status != conformance.Fail {
				t.Fatalf("against mode %q: %s (%s), want fail", brokenFor[c.Name], res.Status, res.Detail)
			}
			if res.Detail == "" {
				t.Errorf("a failure must say what went wrong")
			}
			t.Logf("expected %s; got %s", res.Expected, res.Detail)
		})
	}
	for name := range brokenFor {
		if _, ok := conformance.Lookup(name); !ok {
			t.Errorf("brokenFor names %s, which is not a registered check", name)
		}
	}
}
