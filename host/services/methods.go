package services

import (
	"context"
	"encoding/json"
	"fmt"
)

// method describes how one extension->host method is gated and served.
type method struct {
	notification bool
	minAPI       string // lowest api_version that has it
	exactAPI     string // only this api_version (kv is 0.4 only)
	feature      string // negotiated feature it needs ("" = none)
	manifest     func(*Caller) bool
	manifestWhy  string
	serve        func(r *Router, ctx context.Context, c *Caller, params json.RawMessage) (any, error)
}

// methods is the extension->host method table (wire.md §6).
var methods = map[string]method{
	"notification": {notification: true, minAPI: "0.1",
		manifest: func(c *Caller) bool { return c.Notifications }, manifestWhy: "the manifest does not declare contributes.notifications",
		serve: (*Router).notification},
	"confirmation/request": {minAPI: "0.1",
		manifest: func(c *Caller) bool { return c.Confirmations }, manifestWhy: "the manifest does not declare contributes.confirmations",
		serve: (*Router).confirmation},
	"input/request": {minAPI: "0.2", serve: (*Router).input},
	"context/contribution": {notification: true, minAPI: "0.1",
		manifest: func(c *Caller) bool { return c.Context }, manifestWhy: "the manifest does not declare contributes.context",
		serve: (*Router).contextContribution},
	"status/contribution": {notification: true, minAPI: "0.1",
		manifest: func(c *Caller) bool { return len(c.UI) > 0 }, manifestWhy: "the manifest declares no contributes.ui surface",
		serve: (*Router).statusContribution},
	"presentation/update": {notification: true, minAPI: "0.2",
		manifest: func(c *Caller) bool { return c.Presentation }, manifestWhy: "the manifest does not declare contributes.presentation",
		serve: (*Router).presentation},
	"$/progress":       {notification: true, minAPI: "0.2", feature: "request_progress", serve: (*Router).progress},
	"artifact/publish": {minAPI: "0.2", feature: "artifacts", serve: (*Router).artifactPublish},
	"policy/evaluate":  {minAPI: "0.2", feature: "policy_intents", serve: (*Router).policyEvaluate},
	"secret/get":       {minAPI: "0.2", feature: "secrets", serve: (*Router).secretGet},
	"tools/register":   {minAPI: "0.2", feature: "dynamic_tools", serve: (*Router).toolsRegister},
	"tools/unregister": {minAPI: "0.2", feature: "dynamic_tools", serve: (*Router).toolsUnregister},
	"agent/spawn":      {minAPI: "0.2", feature: "agent_sessions", serve: (*Router).agentSpawn},
	"agent/message":    {minAPI: "0.2", feature: "agent_sessions", serve: (*Router).agentMessage},
	"agent/follow_up":  {minAPI: "0.2", feature: "agent_sessions", serve: (*Router).agentFollowUp},
	"agent/models":     {minAPI: "0.2", feature: "agent_sessions", serve: (*Router).agentModels},
	"agent/list":       {minAPI: "0.2", feature: "agent_sessions", serve: (*Router).agentList},
	"agent/wait":       {minAPI: "0.2", feature: "agent_sessions", serve: (*Router).agentWait},
	"agent/interrupt":  {minAPI: "0.2", feature: "agent_sessions", serve: (*Router).agentInterrupt},
	"kv.get":           {exactAPI: "0.4", feature: "kv", serve: (*Router).kvGet},
	"kv.list":          {exactAPI: "0.4", feature: "kv", serve: (*Router).kvList},
	"kv.commit":        {exactAPI: "0.4", feature: "kv", serve: (*Router).kvCommit},
}

// unavailableFor says why c may not use m ("" = it may). Gated methods are
// method_not_found for that connection: seed 003's rule that a method the
// manifest or negotiation does not enable does not exist for the process.
func (m method) unavailableFor(c *Caller) string {
	if m.exactAPI != "" && c.APIVersion != m.exactAPI {
		return fmt.Sprintf("it needs API %s; this process speaks %s", m.exactAPI, c.APIVersion)
	}
	if m.minAPI != "" && !apiAtLeast(c.APIVersion, m.minAPI) {
		return fmt.Sprintf("it needs API %s or later; this process speaks %s", m.minAPI, c.APIVersion)
	}
	if m.feature != "" && !c.Features[m.feature] {
		return fmt.Sprintf("feature %q was not negotiated", m.feature)
	}
	if m.manifest != nil && !m.manifest(c) {
		return m.manifestWhy
	}
	return ""
}

func apiAtLeast(have, want string) bool {
	order := map[string]int{"0.1": 1, "0.2": 2, "0.4": 4}
	return order[have] >= order[want] && order[have] > 0
}
