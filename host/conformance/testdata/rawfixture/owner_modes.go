package main

import "os"

// The session owner's broken modes (owner.*): the test's fixture manifest declares
// [session] owner = true with echo private.
const (
	// modeOwnerHookError answers every before_prompt with an error: an owner whose policy
	// hook fails on an ordinary prompt (owner.hook_fail_closed).
	modeOwnerHookError = "owner-hook-error"
	// modeOwnerPrivateCrash exits when its private tool echo is called: the owner's call
	// of its private tool never gets an answer (owner.catalog_enforced).
	modeOwnerPrivateCrash = "owner-private-crash"
)

// ownerHookError is the before_prompt failure of modeOwnerHookError, or nil.
func ownerHookError(hook string) *rpcError {
	if mode == modeOwnerHookError && hook == "before_prompt" {
		return &rpcError{Code: -32603, Message: "the fixture's policy failed"}
	}
	return nil
}

// ownerPrivateCrash ends the process on a call of echo in modeOwnerPrivateCrash.
func ownerPrivateCrash(tool string) {
	if mode == modeOwnerPrivateCrash && tool == "echo" {
		os.Exit(3)
	}
}
