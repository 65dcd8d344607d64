package services

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// method is how one extension->host method is gated and served. Everything but serve comes
// from the schema's method registry (protocol.Methods, from schema/methods.json).
type method struct {
	protocol.MethodInfo
	serve func(r *Router, ctx context.Context, c *Caller, params json.RawMessage) (any, error)
}

// handlers serves each extension->host method of the registry; methodTable refuses a
// registry method without a handler and a handler the registry does not know.
var handlers = map[string]func(r *Router, ctx context.Context, c *Caller, params json.RawMessage) (any, error){
	protocol.MethodNotification:        (*Router).notification,
	protocol.MethodConfirmationRequest: (*Router).confirmation,
	protocol.MethodInputRequest:        (*Router).input,
	protocol.MethodContextContribution: (*Router).contextContribution,
	protocol.MethodStatusContribution:  (*Router).statusContribution,
	protocol.MethodPresentationUpdate:  (*Router).presentation,
	protocol.MethodProgress:            (*Router).progress,
	protocol.MethodArtifactPublish:     (*Router).artifactPublish,
	protocol.MethodPolicyEvaluate:      (*Router).policyEvaluate,
	protocol.MethodSecretGet:           (*Router).secretGet,
	protocol.MethodToolsRegister:       (*Router).toolsRegister,
	protocol.MethodToolsUnregister:     (*Router).toolsUnregister,
	protocol.MethodToolsReplace:        (*Router).toolsReplace,
	protocol.MethodAgentSpawn:          (*Router).agentSpawn,
	protocol.MethodAgentMessage:        (*Router).agentMessage,
	protocol.MethodAgentFollowUp:       (*Router).agentFollowUp,
	protocol.MethodAgentModels:         (*Router).agentModels,
	protocol.MethodAgentList:           (*Router).agentList,
	protocol.MethodAgentWait:           (*Router).agentWait,
	protocol.MethodAgentInterrupt:      (*Router).agentInterrupt,
	protocol.MethodKVGet:               (*Router).kvGet,
	protocol.MethodKVList:              (*Router).kvList,
	protocol.MethodKVCommit:            (*Router).kvCommit,
}

// methods is the extension->host method table (wire.md §6), built from the registry.
var methods = methodTable(protocol.Methods, handlers)

// methodTable joins the registry's extension->host methods with their handlers. A missing
// or unknown handler is a programming error caught by the package's first test run.
func methodTable(reg []protocol.MethodInfo, serve map[string]func(*Router, context.Context, *Caller, json.RawMessage) (any, error)) map[string]method {
	out := map[string]method{}
	for _, m := range reg {
		if m.Direction != protocol.DirectionExtensionToHost {
			continue // $/cancelRequest ("both") is the transport's, never a service
		}
		f := serve[m.Name]
		if f == nil {
			panic("services: no handler for extension->host method " + m.Name)
		}
		out[m.Name] = method{MethodInfo: m, serve: f}
	}
	for name := range serve {
		if _, ok := out[name]; !ok {
			panic("services: handler for " + name + ", which the method registry does not list as extension->host")
		}
	}
	return out
}

func (m method) notification() bool { return m.Kind == protocol.KindNotification }

// unavailableFor says why c may not use m ("" = it may). Gated methods are
// method_not_found for that connection: seed 003's rule that a method the
// manifest or negotiation does not enable does not exist for the process.
func (m method) unavailableFor(c *Caller) string {
	if !slices.Contains(m.Versions, c.APIVersion) {
		if len(m.Versions) == 1 {
			return fmt.Sprintf("it needs API %s; this process speaks %s", m.Versions[0], c.APIVersion)
		}
		return fmt.Sprintf("it needs API %s or later; this process speaks %s", m.Versions[0], c.APIVersion)
	}
	if m.Feature != "" && !c.Features[m.Feature] {
		return fmt.Sprintf("feature %q was not negotiated", m.Feature)
	}
	if m.Contribution != "" && !declares(c, m.Contribution) {
		if m.Contribution == "ui" {
			return "the manifest declares no contributes.ui surface"
		}
		return "the manifest does not declare contributes." + m.Contribution
	}
	return ""
}

// declares is the binding of a registry contribution name to what the host core recorded
// of the caller's manifest (the schema names the contribution, not where the core keeps it).
func declares(c *Caller, contribution string) bool {
	switch contribution {
	case "notifications":
		return c.Notifications
	case "confirmations":
		return c.Confirmations
	case "context":
		return c.Context
	case "ui":
		return len(c.UI) > 0
	case "presentation":
		return c.Presentation
	}
	return false // a contribution this host does not know gates its method off
}
