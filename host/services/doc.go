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
//
// Every params object is read into its generated sdk-go/protocol type through that type's
// generated validator (params.go: decode), and every result is a generated type; the method
// table is the schema's registry, protocol.Methods (methods.go). What stays hand-written is
// only what the schema cannot say, each check named for its rule: namespace binding
// (checkNamespace), owner and generation fences (withParent, activeParent), feature and
// manifest gates (unavailableFor, declares, progressEvent), cross-field and host rules
// (artifactForm, snapshotRules, compileToolSchemas, the KV value's canonical size).
package services
