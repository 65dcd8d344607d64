package host

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// offeredFeatures is the offer for m by the schema's negotiation table (protocol.OfferFeatures):
// the version's required features, and with services the optional ones plus each
// conditional one whose host condition holds for o.
func offeredFeatures(m *manifest.Manifest, o *Options) (required, optional []string) {
	return protocol.OfferFeatures(m.APIVersion, m.JSON, o.Services != nil, o.ConditionHolds)
}

// buildInitialize is the initialize request the host sends, as the generated protocol type
// of m's API version (InitializeParams01 has no protocol block), and what it offers.
func buildInitialize(e *discovery.Entry, m *manifest.Manifest, o *Options) (any, InitializeOffer) {
	ext := protocol.ExtensionInfo{Name: m.Name, Version: m.Version, Dir: m.Dir, ManifestPath: m.Path, Source: string(e.Source)}
	ws := protocol.WorkspaceInfo{Root: o.Workspace, Trusted: o.WorkspaceTrusted}
	session := sessionInfo(o.Session)
	wire := m.Wire
	if wire.Name == "" && m.JSON != nil {
		// A Manifest built by hand rather than by manifest.Parse: its JSON is the manifest.
		b, _ := json.Marshal(m.JSON)
		_ = json.Unmarshal(b, &wire)
	}
	offer := InitializeOffer{APIVersion: m.APIVersion, MaxConcurrency: o.MaxConcurrency}
	if m.APIVersion == "0.1" {
		return protocol.InitializeParams01{APIVersion: m.APIVersion, OctetVersion: o.OctetVersion, Extension: ext,
			Manifest: wire, Workspace: ws, Session: session}, offer
	}
	offer.RequiredFeatures, offer.OptionalFeatures = offeredFeatures(m, o)
	limits := protocol.OfferedLimits{MaxConcurrentRequests: int64(o.MaxConcurrency), MaxPendingRequests: positive(protocol.MaxPendingRequests),
		MaxMessageBytes: positive(o.MaxMessageBytes)}
	return protocol.InitializeParams{APIVersion: m.APIVersion, OctetVersion: o.OctetVersion, Extension: ext, Manifest: wire,
		Workspace: ws, Session: session, Protocol: protocol.ProtocolOffer{Version: m.APIVersion,
			RequiredFeatures: offer.RequiredFeatures, OptionalFeatures: offer.OptionalFeatures, Limits: limits}}, offer
}

// sessionInfo is the session block of initialize, absent when the host serves no session.
func sessionInfo(s Session) *protocol.SessionInfo {
	if s.SessionID == "" && s.Model == nil {
		return nil
	}
	info := &protocol.SessionInfo{ActiveSkills: s.ActiveSkills}
	if s.SessionID != "" {
		info.SessionID = &s.SessionID
	}
	if s.Model != nil {
		info.Model = &protocol.ModelInfo{Provider: s.Model.Provider, ID: s.Model.ID}
	}
	if s.ReasoningEffort != "" {
		info.ReasoningEffort = &s.ReasoningEffort
	}
	return info
}

// positive is n as an optional limit: absent when not set.
func positive(n int) *int64 {
	if n <= 0 {
		return nil
	}
	v := int64(n)
	return &v
}

// negotiated is what a successful handshake settled.
type negotiated struct {
	tools       []ToolDefinition // as the extension sent them (schemas kept as raw JSON)
	commands    []protocol.CommandDefinition
	hooks, ui   []string // nil: omitted (the manifest's)
	renderers   []string // nil: omitted (the manifest's)
	context     *bool
	features    map[string]bool
	concurrency int
	lifecycle   []string
}

// checkInitialize applies every host check of wire.md §5 to the raw result. A failure is a
// deterministic refusal: restarting the same extension would give the same answer.
func checkInitialize(raw json.RawMessage, m *manifest.Manifest, offer InitializeOffer) (*negotiated, error) {
	refuse := func(format string, args ...any) error {
		return &process.StartError{Kind: process.KindRefused, Message: "initialize result refused: " + fmt.Sprintf(format, args...)}
	}
	if offer.MaxConcurrency <= 0 {
		offer.MaxConcurrency = protocol.MaxInFlight
	}
	api01 := offer.APIVersion == "0.1"
	if err := validateInitializeResult(offer.APIVersion, raw); err != nil {
		return nil, refuse("%v", err)
	}
	// The generated validator has judged every member, so encoding/json reads exactly the
	// schema's fields (0.1's result is a subset of the later one); the tools' schemas stay
	// the bytes sent (open objects are raw JSON in Go).
	var res protocol.InitializeResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, refuse("%v", err)
	}
	if res.APIVersion != offer.APIVersion {
		return nil, refuse("api_version %q differs from the requested %q; versions are exact", res.APIVersion, offer.APIVersion)
	}
	if res.Name != m.Name || res.Version != m.Version {
		return nil, refuse("name/version %s/%s differ from the manifest's %s/%s", res.Name, res.Version, m.Name, m.Version)
	}
	n := &negotiated{tools: res.Tools, commands: res.Commands, hooks: stringsOf(res.Hooks), ui: stringsOf(res.UI),
		renderers: res.ToolRenderers, context: res.Context,
		features: map[string]bool{}, concurrency: 1}
	if !api01 {
		if res.Protocol.Version != offer.APIVersion {
			return nil, refuse("protocol.version %q differs from the offered %q", res.Protocol.Version, offer.APIVersion)
		}
		got, err := protocol.CheckAnswer(offer.RequiredFeatures, offer.OptionalFeatures, stringsOf(res.Protocol.Features))
		if err != nil {
			return nil, refuse("%v", err)
		}
		n.features = got
		n.concurrency = min(int(res.Protocol.Limits.MaxConcurrentRequests), offer.MaxConcurrency)
		n.lifecycle = stringsOf(res.Protocol.LifecycleEvents)
	}
	if err := checkTools(n.tools, m, n.features[string(protocol.FeatureDynamicTools)]); err != nil {
		return nil, refuse("%v", err)
	}
	names := make([]string, len(res.Commands))
	for i, c := range res.Commands {
		names[i] = c.Name
	}
	if !sameSet(names, m.Contributes.Commands) {
		return nil, refuse("commands %v differ from the manifest's %v", names, m.Contributes.Commands)
	}
	for _, pair := range []struct {
		what      string
		got, want []string
	}{{"hooks", n.hooks, m.Contributes.Hooks}, {"ui", n.ui, m.Contributes.UI}, {"tool_renderers", n.renderers, m.Contributes.ToolRenderers}} {
		for _, g := range pair.got {
			if !contains(pair.want, g) {
				return nil, refuse("%s entry %q is not declared in the manifest", pair.what, g)
			}
		}
	}
	if res.Context != nil && *res.Context && !m.Contributes.Context {
		return nil, refuse("context is true but the manifest does not declare contributes.context")
	}
	if !n.features[string(protocol.FeatureDynamicTools)] {
		for _, r := range m.Contributes.ToolRenderers {
			if !contains(m.Contributes.Tools, r) {
				return nil, refuse("manifest renderer %q names a tool that is not in contributes.tools and dynamic_tools was not negotiated", r)
			}
		}
	}
	return n, nil
}

// checkTools applies the catalog rules the schema cannot state: at most MAX_CATALOG_TOOLS
// tools, each name once, and without dynamic_tools exactly the manifest's tools.
func checkTools(tools []ToolDefinition, m *manifest.Manifest, dynamic bool) error {
	seen := map[string]bool{}
	names := make([]string, 0, len(tools))
	if len(tools) > protocol.MaxCatalogTools {
		return fmt.Errorf("%d tools exceed the %d-tool catalog limit", len(tools), protocol.MaxCatalogTools)
	}
	for _, t := range tools {
		if seen[t.Name] {
			return fmt.Errorf("tool %q is listed twice", t.Name)
		}
		seen[t.Name] = true
		names = append(names, t.Name)
	}
	if !dynamic && !sameSet(names, m.Contributes.Tools) {
		return fmt.Errorf("tools %v differ from the manifest's %v (without dynamic_tools they must match exactly)", names, m.Contributes.Tools)
	}
	return nil
}

// stringsOf is a list of a generated string enum as plain strings.
func stringsOf[S ~string](list []S) []string {
	if list == nil {
		return nil // omitted stays omitted
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = string(s)
	}
	return out
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := append([]string{}, a...), append([]string{}, b...)
	sort.Strings(x)
	sort.Strings(y)
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
