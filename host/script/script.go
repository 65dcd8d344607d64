// Package script is the reference host's --script file: the deterministic
// answers a human or a model would otherwise give (confirmations, input,
// policy decisions, child-session replies), the secrets the broker serves
// and the lifecycle events the host emits. See docs/host-script.md.
package script

import (
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Script is a parsed --script file. The zero value (or nil) is the default
// policy: deny confirmations, cancel input, deny policy, serve no secrets,
// stock child replies, emit no lifecycle events.
type Script struct {
	Confirmations []Confirmation
	Inputs        []Input
	Policy        []PolicyRule
	Agents        []Agent
	Models        []Model
	Lifecycle     []protocol.LifecycleNotification
	// secrets maps a logical secret name to its value. Unexported so it is
	// never printed by %v or encoded by accident; read with Secret.
	secrets map[string]string
}

// Confirmation answers confirmation/request calls whose message contains
// Match (all when empty), optionally only for one extension.
type Confirmation struct {
	Extension string
	Match     string
	Confirmed bool
}

// Input answers input/request calls whose prompt contains Match. Cancel
// answers null.
type Input struct {
	Extension string
	Match     string
	Value     string
	Cancel    bool
}

// PolicyRule decides policy/evaluate for intents whose kind and operation
// match (path.Match globs; empty matches all).
type PolicyRule struct {
	Extension string
	Kind      string
	Operation string
	Decision  string // allow | ask | deny
	Reason    string
	// Approve: for "ask", the scripted user approves, so the host issues a
	// one-use approval token (when approvals are negotiated).
	Approve bool
}

// Agent is the scripted reply of child sessions whose task name matches.
type Agent struct {
	TaskName         string
	Output           string
	State            string // settled | failed | timed_out
	Turns            int64
	InputTokens      int64
	OutputTokens     int64
	CostMicrodollars int64
	// Hang keeps the child running until interrupted or its deadline.
	Hang bool
}

// Model is one entry agent/models lists.
type Model struct {
	Provider, Model, Label string
}

// Secret returns the value of a brokered secret.
func (s *Script) Secret(name string) (string, bool) {
	if s == nil {
		return "", false
	}
	v, ok := s.secrets[name]
	return v, ok
}

// HasSecrets reports whether a broker is configured (the host offers the
// secrets feature only then).
func (s *Script) HasSecrets() bool { return s != nil && s.secrets != nil }

// IssuesApprovals reports whether some policy rule approves an ask, i.e. the host has
// approval issuance configured and offers the conditional approvals feature.
func (s *Script) IssuesApprovals() bool {
	if s == nil {
		return false
	}
	for _, r := range s.Policy {
		if r.Approve {
			return true
		}
	}
	return false
}

// String describes the script without secret values, so printing a Script
// (%v, %+v, %s) never leaks them.
func (s *Script) String() string {
	if s == nil {
		return "script(default policy)"
	}
	return fmt.Sprintf("script(%d confirmations, %d inputs, %d policy rules, %d agents, %d models, %d lifecycle events, %d secrets)",
		len(s.Confirmations), len(s.Inputs), len(s.Policy), len(s.Agents), len(s.Models), len(s.Lifecycle), len(s.secrets))
}

// GoString is String: %#v must not print secret values either.
func (s *Script) GoString() string { return s.String() }

// SecretValues returns every brokered secret value, for the host's
// redactor (host/redact) to learn before any extension starts.
func (s *Script) SecretValues() []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, v := range s.secrets {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
