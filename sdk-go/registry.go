package octet

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// registry is what the extension contributes, registered before Run: tools (the bootstrap
// catalog), commands, hooks, context, status surfaces, renderers, lifecycle subscriptions,
// shutdown functions, settings and KV migrations. mu guards it.
type registry struct {
	mu        sync.Mutex
	tools     []*ToolDef // bootstrap catalog (revision 0), in registration order
	commands  []*commandEntry
	hooks     map[string]HookHandler
	context   ContextHandler
	statuses  map[string]StatusHandler
	renderers map[string]RenderHandler
	lifecycle map[string][]LifecycleHandler
	shutdowns []func(ctx context.Context)
	configure configurer      // OnConfigure (settings.go)
	settings  json.RawMessage // the last accepted settings
	// migrations are the registered KV migration steps by from-version (migrate.go).
	migrations map[int64]MigrationFunc
	migration  migrationState
}

// CommandResult answers command/execute.
type CommandResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"is_error,omitempty"`
}

// CommandHandler serves a slash command; args is the host's argument array.
type CommandHandler func(ctx context.Context, args []string) (CommandResult, error)

type commandEntry struct {
	name, description string
	fn                CommandHandler
}

// HookHandler runs at a hook point; payload is the hook's payload object
// (wire.md §5: before_prompt {prompt}, after_tool_call {name, arguments, output,
// is_error}, …).
type HookHandler func(ctx context.Context, payload json.RawMessage) (HookResult, error)

// HookResult answers hook/run; every field is optional.
type HookResult struct {
	Disposition         *Disposition         `json:"disposition,omitempty"`
	PersistenceMetadata *PersistenceMetadata `json:"persistence_metadata,omitempty"`
	PostMutationRescan  *PostMutationRescan  `json:"post_mutation_rescan,omitempty"`
}

// Disposition tells the host to continue, block or replace: the wire type. A replace
// carries what the hook point replaces: Prompt (before_prompt), Arguments (before_tool_call)
// or Output (after_tool_call). Continue, Block and the Replace helpers build one.
type Disposition = protocol.HookDisposition

// PersistenceMetadata is a before_persistence hook's typed result field: the wire type.
type PersistenceMetadata = protocol.PersistenceMetadata

// PostMutationRescan is a post_mutation hook's typed result field: the wire type.
type PostMutationRescan = protocol.PostMutationRescan

// Continue returns a hook result that lets the host proceed.
func Continue() HookResult { return HookResult{Disposition: &Disposition{Action: "continue"}} }

// Block returns a hook result that stops the operation with message.
func Block(message string) HookResult {
	return HookResult{Disposition: &Disposition{Action: "block", Message: nonEmpty(message)}}
}

// ReplacePrompt returns a before_prompt result that replaces the prompt.
func ReplacePrompt(prompt string) HookResult {
	return HookResult{Disposition: &Disposition{Action: "replace", Prompt: &prompt}}
}

// ReplaceArguments returns a before_tool_call result that calls the tool with args instead
// (the host still checks them against the tool's parameters). args is encoded once, here;
// a value encoding/json cannot encode panics, as a handler's programming error.
func ReplaceArguments(args map[string]any) HookResult {
	return HookResult{Disposition: &Disposition{Action: "replace", Arguments: encodeObject("replacement arguments", args)}}
}

// ReplaceOutput returns an after_tool_call result that shows output instead of the tool's
// content.
func ReplaceOutput(output string) HookResult {
	return HookResult{Disposition: &Disposition{Action: "replace", Output: &output}}
}

// WithPersistenceMetadata returns a before_persistence result. value must encode to a
// JSON object (nil is {}); a value encoding/json cannot encode panics, as a handler's
// programming error.
func WithPersistenceMetadata(value map[string]any, public bool) HookResult {
	return HookResult{PersistenceMetadata: &PersistenceMetadata{Value: encodeObject("persistence metadata", value), Public: public}}
}

// encodeObject encodes a hook result's open object (nil is {}) for a json.RawMessage
// field; what encoding/json cannot encode panics, naming what.
func encodeObject(what string, value map[string]any) json.RawMessage {
	if value == nil {
		return json.RawMessage("{}")
	}
	b, err := json.Marshal(value)
	if err != nil {
		panic(fmt.Sprintf("octet: %s: %v", what, err))
	}
	return b
}

// WithPostMutationRescan returns a post_mutation result.
func WithPostMutationRescan(resourceIDs ...string) HookResult {
	if resourceIDs == nil {
		resourceIDs = []string{}
	}
	return HookResult{PostMutationRescan: &PostMutationRescan{ResourceIDs: resourceIDs}}
}

// ContextItem is one piece of prompt context (Placement: system_prefix, system_suffix,
// prompt_prefix or prompt_suffix): the wire type.
type ContextItem = protocol.ContextItem

// ContextHandler answers context/collect; params is the whole params object.
type ContextHandler func(ctx context.Context, params json.RawMessage) ([]ContextItem, error)

// StatusResult answers status/collect (and is the body of status/contribution): the wire
// type. An empty Surface is the surface the host asked for; StyleRole is left out unless set
// (protocol.OptionalValue("accent")).
type StatusResult = protocol.StatusCollectResult

// StatusHandler answers status/collect for one surface; params is the whole object.
type StatusHandler func(ctx context.Context, params json.RawMessage) (StatusResult, error)

// Segment is one styled piece of a rendered tool result: the wire type. The zero StyleRole
// is null (plain text); Styled sets one.
type Segment = protocol.RenderSegment

// Styled is a Segment of text in the style role role.
func Styled(text, role string) Segment {
	return Segment{Text: text, StyleRole: protocol.NullableOf(role)}
}

// RenderHandler answers tool/render for one tool; params is the whole object.
type RenderHandler func(ctx context.Context, params json.RawMessage) ([]Segment, error)

// LifecycleNotification is one lifecycle event as it happens (session/turn/tool
// started/settled): the protocol type. Method is the event (protocol.LifecycleEvent); the other
// fields are those its params carry; Raw is the params as sent.
type LifecycleNotification = protocol.LifecycleNotification

// LifecycleHandler observes a lifecycle event; it cannot veto the transition.
type LifecycleHandler func(ctx context.Context, event LifecycleNotification)

// lifecycleMethods are the lifecycle events, derived from the schema's dispatch roles.
var lifecycleMethods = protocol.EventMethods

// Command registers a slash command.
func (e *Extension) Command(name, description string, fn CommandHandler) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range e.commands {
		if c.name == name {
			panic(fmt.Sprintf("octet: command %q registered twice", name))
		}
	}
	e.commands = append(e.commands, &commandEntry{name: name, description: description, fn: fn})
}

// Hook registers the handler for a hook point (before_prompt, after_response,
// before_tool_call, after_tool_call, before_persistence, post_mutation).
func (e *Extension) Hook(name string, fn HookHandler) {
	switch name {
	case "before_prompt", "after_response", "before_tool_call", "after_tool_call", "before_persistence", "post_mutation":
	default:
		panic(fmt.Sprintf("octet: %q is not a hook point", name))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.hooks[name] = fn
}

// Context registers the context/collect handler.
func (e *Extension) Context(fn ContextHandler) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.context = fn
}

// Status registers the status/collect handler for a surface (status, header, footer).
func (e *Extension) Status(surface string, fn StatusHandler) {
	switch surface {
	case "status", "header", "footer":
	default:
		panic(fmt.Sprintf("octet: %q is not a UI surface (status, header, footer)", surface))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.statuses[surface] = fn
}

// Renderer registers the tool/render handler for a tool's results.
func (e *Extension) Renderer(tool string, fn RenderHandler) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.renderers[tool] = fn
}

// OnLifecycle subscribes to a lifecycle notification; slash or underscore names are
// accepted ("turn/settled" or "turn_settled"). With at least one subscription the
// SDK negotiates lifecycle_events and tells the host which events it wants.
func (e *Extension) OnLifecycle(event string, fn LifecycleHandler) {
	method := strings.Replace(event, "_", "/", 1)
	known := false
	for _, m := range lifecycleMethods {
		known = known || m == method
	}
	if !known {
		panic(fmt.Sprintf("octet: %q is not a lifecycle event (%s)", event, strings.Join(lifecycleMethods, ", ")))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.lifecycle[method] = append(e.lifecycle[method], fn)
}

// OnShutdown registers a function run once on shutdown or stdin EOF, after the
// drain, bounded by what remains of the deadline (ctx ends then).
func (e *Extension) OnShutdown(fn func(ctx context.Context)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.shutdowns = append(e.shutdowns, fn)
}
