// Package services is the reference host's side of every extension->host
// method (wire.md §6): notifications, confirmations, input, contributions,
// progress, presentation, artifacts, policy and approvals, secrets, dynamic
// tool catalogs, child sessions, lifecycle helpers and KV.
//
// The host core owns processes and transport; for every frame an extension
// sends it calls Router.Handle with the Caller identity it started the
// process with. Nothing an extension says about itself is trusted: owners
// are derived from parent_request_id through Caller.ActiveParent, KV
// namespaces from Caller.Extension, secrets from Caller.Secrets.
package services
