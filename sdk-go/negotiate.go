package octet

import (
	"context"
	"encoding/json"
	"os"
	"slices"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// initialize answers the handshake: version selection, feature negotiation and
// the contribution lists, checked against the manifest the host sent.
func (e *Extension) initialize(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if e.session.Load() != nil {
		return nil, jsonrpc.NewError(protocol.CodeInvalidRequest, "initialize was already received", nil)
	}
	// One strict parse serves the version selection and the schema check; its error is
	// reported where the schema check's would be, after the version is selected, as before.
	doc, parseErr := strictjson.Parse(req.Params)
	api, manifestAPI, ok := "", "", false
	if parseErr == nil {
		api, manifestAPI, ok = headFromDoc(doc)
	}
	if !ok {
		var head struct {
			APIVersion string `json:"api_version"`
			Manifest   struct {
				APIVersion string `json:"api_version"`
			} `json:"manifest"`
		}
		if err := json.Unmarshal(req.Params, &head); err != nil || head.APIVersion == "" {
			return nil, invalidParams("/api_version", "initialize needs a string api_version")
		}
		api, manifestAPI = head.APIVersion, head.Manifest.APIVersion
	}
	pinned := e.opts.APIVersion
	if pinned == "" {
		pinned = os.Getenv("OCTET_EXTENSION_API_VERSION")
	}
	if r := protocol.SelectVersion(api, pinned, manifestAPI); r != nil {
		return nil, refusal(r)
	}

	// The params are checked against the version's params type on that tree (the
	// verdicts and messages of protocol.Unmarshal); what the SDK keeps is then read
	// from it (initdoc.go), not decoded again: encoding/json's first use of the typed
	// InitializeParams tree (the manifest's certify, runtime and capability tables
	// included) was most of an extension's start (issue 17).
	err := parseErr
	if err == nil {
		err = protocol.ValidateFromHost(initializeParamsType.Params[api], doc)
	}
	if err != nil {
		return nil, invalidParams("", "initialize params: %v", err)
	}
	// Valid against the schema: the params and their manifest member are objects.
	// ManifestHas reads only presence, emptiness and truth, which the strict tree gives
	// as encoding/json's does.
	top, _ := doc.(map[string]any)
	manifestJSON, _ := top["manifest"].(map[string]any)
	info, ok := infoFromDoc(top, req.Params)
	if !ok {
		info = InitializeInfo{}
		if err := json.Unmarshal(req.Params, &info); err != nil {
			return nil, invalidParams("", "initialize params: %v", err)
		}
	}
	manifest := manifestFromDoc(manifestJSON)

	e.mu.Lock()
	defer e.mu.Unlock()
	s := &session{apiVersion: api, features: map[string]bool{}, params: info, manifest: manifest, concurrency: 1, maxBytes: protocol.MaxMessageBytes}
	result := map[string]any{
		"api_version": api,
		"name":        manifest.Name,
		"version":     manifest.Version,
	}
	pending := e.opts.MaxPendingRequests
	if api != "0.1" {
		block, err := e.negotiate(s, info.Protocol, manifestJSON, &pending)
		if err != nil {
			return nil, err
		}
		result["protocol"] = block
	}
	if err := e.checkManifest(s); err != nil {
		return nil, err
	}
	e.contributions(s, result)

	e.catalog.reset(e.tools)
	e.pool = newPool(s.concurrency, pending, e.cancelWork)
	e.conn.SetMaxMessageBytes(s.maxBytes)
	e.conn.SetCancellation(api != "0.1")
	if api == "0.1" {
		e.conn.SetIDPrefix("") // API 0.1: unsigned integer ids
	}
	e.session.Store(s)
	e.log.Info("initialized", "api_version", api, "features", featureList(s), "concurrency", s.concurrency)
	// The bytes json.Marshal writes for result, without its reflection over every tool
	// definition (TestInitializeAnswerEqualsJSONMarshal).
	if raw, err := marshalTree(result); err == nil {
		return json.RawMessage(raw), nil
	}
	return result, nil
}

// initializeParamsType names initialize's params schema type per API version.
var initializeParamsType, _ = protocol.LookupMethod(protocol.MethodInitialize)

// manifestView is the part of the manifest the SDK reads after initialize (the
// schema checked all of it): its identity for the answer and its contributions.
// manifestFromDoc fills it; the json tags are how encoding/json would, the reference
// TestInitializeFromDocEqualsUnmarshal compares it with.
type manifestView struct {
	Name        protocol.ExtensionName          `json:"name"`
	Version     string                          `json:"version"`
	Contributes *protocol.ManifestContributions `json:"contributes"`
}

// featureList lists s's features sorted.
func featureList(s *session) []string {
	out := make([]string, 0, len(s.features))
	for f := range s.features {
		out = append(out, f)
	}
	sortStrings(out)
	return out
}

// refusal is a negotiation refusal as the JSON-RPC error every SDK answers alike.
func refusal(r *protocol.Refusal) error { return jsonrpc.NewError(r.Code, r.Message, r.Data) }

// negotiate answers the protocol block (API 0.2/0.4) by the generated negotiation table.
func (e *Extension) negotiate(s *session, offer *protocol.ProtocolOffer, manifest map[string]any, pending *int) (any, error) {
	if offer == nil {
		return nil, invalidParams("/protocol", "API %s initialize needs a protocol block", s.apiVersion)
	}
	if offer.Version != s.apiVersion {
		return nil, invalidParams("/protocol/version", "protocol.version %q must equal api_version %q", offer.Version, s.apiVersion)
	}
	hasHandler := func(kind string) bool { return kind == "lifecycle" && len(e.lifecycle) > 0 }
	features, r := protocol.AcceptFeatures(s.apiVersion, offer.RequiredFeatures, offer.OptionalFeatures, hasHandler, manifest)
	if r != nil {
		return nil, refusal(r)
	}
	for _, f := range features {
		s.features[f] = true
	}
	s.concurrency = min(e.opts.MaxConcurrentRequests, int(offer.Limits.MaxConcurrentRequests), protocol.MaxInFlight)
	if offer.Limits.MaxMessageBytes != nil && *offer.Limits.MaxMessageBytes > 0 {
		s.maxBytes = int(*offer.Limits.MaxMessageBytes)
	}
	if offer.Limits.MaxPendingRequests != nil && *offer.Limits.MaxPendingRequests >= 0 {
		*pending = min(*pending, int(*offer.Limits.MaxPendingRequests))
	}
	block := protocol.ProtocolAnswer{
		Version:  s.apiVersion,
		Features: make([]protocol.Feature, len(features)),
		Limits:   protocol.AnsweredLimits{MaxConcurrentRequests: int64(s.concurrency)},
	}
	for i, f := range features {
		block.Features[i] = protocol.Feature(f)
	}
	if s.features[string(protocol.FeatureLifecycleEvents)] {
		for _, m := range protocol.LifecycleEvents {
			if len(e.lifecycle[m]) > 0 {
				block.LifecycleEvents = append(block.LifecycleEvents, protocol.LifecycleEvent(m))
			}
		}
	}
	return block, nil
}

// checkManifest refuses a registry that the host would refuse, with a clearer
// message: bootstrap tools and commands must equal the manifest's (tools need not
// when dynamic_tools was negotiated), hooks, surfaces and renderers must be
// declared, and API 0.1 has no output schemas.
func (e *Extension) checkManifest(s *session) error {
	c := s.manifest.Contributes
	if c == nil {
		c = &protocol.ManifestContributions{}
	}
	var tools []string
	for _, t := range e.tools {
		tools = append(tools, t.spec.Name)
		if s.apiVersion == "0.1" && t.output != nil {
			return invalidParams("", "tool %q declares an output_schema, which API 0.1 forbids", t.spec.Name)
		}
	}
	if !s.features[string(protocol.FeatureDynamicTools)] {
		if err := sameSet("tool", tools, c.Tools, "contributes.tools"); err != nil {
			return err
		}
	}
	var cmds []string
	for _, cmd := range e.commands {
		cmds = append(cmds, cmd.name)
	}
	if err := sameSet("command", cmds, c.Commands, "contributes.commands"); err != nil {
		return err
	}
	for h := range e.hooks {
		if !slices.Contains(c.Hooks, protocol.HookName(h)) {
			return invalidParams("", "hook %q is registered but not declared in the manifest's contributes.hooks", h)
		}
	}
	for surface := range e.statuses {
		if !slices.Contains(c.UI, protocol.UISurface(surface)) {
			return invalidParams("", "status surface %q is registered but not declared in the manifest's contributes.ui", surface)
		}
	}
	for tool := range e.renderers {
		if !slices.Contains(c.ToolRenderers, tool) {
			return invalidParams("", "renderer for %q is registered but not declared in the manifest's contributes.tool_renderers", tool)
		}
	}
	if e.context != nil && (c.Context == nil || !*c.Context) {
		return invalidParams("", "a context handler is registered but the manifest does not set contributes.context = true")
	}
	return nil
}

func sameSet(kind string, registered, declared []string, field string) error {
	for _, n := range registered {
		if !slices.Contains(declared, n) {
			return invalidParams("", "%s %q is registered but not declared in the manifest's %s", kind, n, field)
		}
	}
	for _, n := range declared {
		if !slices.Contains(registered, n) {
			return invalidParams("", "%s %q is declared in the manifest's %s but not registered", kind, n, field)
		}
	}
	return nil
}

// contributions fills the initialize result's lists.
func (e *Extension) contributions(s *session, result map[string]any) {
	tools := make([]protocol.ToolDefinition, 0, len(e.tools))
	for _, t := range e.tools {
		tools = append(tools, t.definition(s.apiVersion))
	}
	cmds := make([]protocol.CommandDefinition, 0, len(e.commands))
	for _, c := range e.commands {
		cmds = append(cmds, protocol.CommandDefinition{Name: c.name, Description: c.description})
	}
	result["tools"] = tools
	result["commands"] = cmds
	if len(e.hooks) > 0 {
		result["hooks"] = sortedKeys(e.hooks)
	}
	if len(e.statuses) > 0 {
		result["ui"] = sortedKeys(e.statuses)
	}
	if e.context != nil {
		result["context"] = true
	}
	if len(e.renderers) > 0 {
		result["tool_renderers"] = sortedKeys(e.renderers)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}
