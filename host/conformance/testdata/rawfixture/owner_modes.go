package main

import "slices"

// The session owner's broken modes (owner.*): the test's fixture manifest declares
// [session] owner = true with echo private.
const (
	// modeOwnerHookError answers every before_prompt with an error: an owner whose policy
	// hook fails on an ordinary prompt (owner.hook_fail_closed).
	modeOwnerHookError = "owner-hook-error"
	// modeOwnerPrivateUnserved leaves its private tool echo out of the tools it registers:
	// the owner cannot reach a private tool it does not serve (owner.catalog_enforced).
	modeOwnerPrivateUnserved = "owner-private-unserved"
)

// ownerHookError is the before_prompt failure of modeOwnerHookError, or nil.
func ownerHookError(hook string) *rpcError {
	if mode == modeOwnerHookError && hook == "before_prompt" {
		return &rpcError{Code: -32603, Message: "the fixture's policy failed"}
	}
	return nil
}

// servedTools is names without echo in modeOwnerPrivateUnserved.
func servedTools(names []string) []string {
	if mode != modeOwnerPrivateUnserved {
		return names
	}
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "echo" })
}
