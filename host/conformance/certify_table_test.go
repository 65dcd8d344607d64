package conformance_test

// fixtureCertify is the [certify] table every language's fixture manifest carries
// (examples/*/conformance-fixture/extension.toml): the tools.* checks call echo, typed and
// suite_args with generated arguments and skip the tools whose fixture behaviour is
// deliberate misbehaviour or a service pass-through.
const fixtureCertify = `
# octet-host certify calls echo, typed and suite_args with arguments generated from their
# schemas; the others behave as docs/design/fixture.md says on purpose, and the fixture
# checks call them with chosen values.
[certify]
tools = [
  { name = "echo", examples = [{ value = "certify" }] },
  { name = "fail_with", skip = true, reason = "answers exactly the error its arguments name (errors.verbatim)" },
  { name = "slow", skip = true, reason = "its ms argument scales the wait and the fixture's schema sets no bound" },
  { name = "ignore_cancel", skip = true, reason = "its ms argument scales the wait and it ignores cancellation by design" },
  { name = "progress_n", skip = true, reason = "its n argument scales the progress events and the fixture's schema sets no bound" },
  { name = "print_stdout", skip = true, reason = "writes to stdout by design (stdout.stray_output)" },
  { name = "crash", skip = true, reason = "exits the process by design (crash.transport_error)" },
  { name = "callback_n", skip = true, reason = "its n argument scales the callbacks and the fixture's schema sets no bound" },
  { name = "big_result", skip = true, reason = "answers a result of the size its arguments name (result.oversized_refused)" },
  { name = "publish", skip = true, reason = "publishes artifacts of the size its arguments name (artifacts.integrity)" },
  { name = "register_dynamic", skip = true, reason = "changes the dynamic catalog (catalog.revisions)" },
  { name = "unregister_dynamic", skip = true, reason = "changes the dynamic catalog (catalog.revisions)" },
  { name = "replace_dynamic", skip = true, reason = "changes the dynamic catalog (catalog.atomic_replace)" },
  { name = "ask", skip = true, reason = "passes its arguments to input/request and carries the host's refusal verbatim (input.correlation)" },
  { name = "secret", skip = true, reason = "passes its arguments to secret/get and carries the host's refusal verbatim (secrets.allowlist)" },
  { name = "present", skip = true, reason = "publishes a snapshot of the size its arguments name (presentation.limits)" },
  { name = "spawn_child", skip = true, reason = "starts a child agent session (agents.child_bounds)" },
  { name = "kv_commit", skip = true, reason = "passes its arguments to the KV commit and carries the host's refusal verbatim (kv.preconditions)" },
  { name = "kv_get", skip = true, reason = "passes its arguments to kv.get and carries the host's refusal verbatim (kv.preconditions)" },
  { name = "kv_list", skip = true, reason = "passes its arguments to kv.list and carries the host's refusal verbatim (kv.list_pages)" },
  { name = "arm_stuck_shutdown", skip = true, reason = "makes the shutdown handler hang by design (shutdown.self_bounded)" },
  { name = "notify", skip = true, reason = "passes its arguments to notification and carries the host's refusal verbatim (notify.delivered)" },
  { name = "contribute", skip = true, reason = "pushes context and status contributions (contributions.pushed)" },
  { name = "policy", skip = true, reason = "passes its arguments to policy/evaluate and carries the host's refusal verbatim (policy.decisions)" },
  { name = "agent_op", skip = true, reason = "passes its arguments to the agent services and carries the host's refusal verbatim (agents.steering)" },
  { name = "settings_in_force", skip = true, reason = "answers with the settings configure put in force, which the config.* checks set (config.settings_delivered)" },
  { name = "idempotency_key_seen", skip = true, reason = "answers with the call's idempotency key, which idempotency.key_delivered sets" },
  { name = "sandbox_probe", skip = true, reason = "tries the read, write, connect, spawn or allocation its arguments name (sandbox.*)" },
]
`

// The raw fixture modes that break the tools.* checks (kept here, beside the table, so the
// shared brokenFor list is not edited for them).
func init() {
	brokenFor["tools.valid_arguments"] = "typed-negative-crash"
	brokenFor["tools.invalid_arguments"] = "no-param-validation"
	brokenFor["tools.cancel_mid_flight"] = "cancel-answers-twice"
	brokenFor["tools.concurrent_calls"] = "serial-tools"
	brokenFor["tools.shutdown_drains"] = "shutdown-drops-calls"
}
