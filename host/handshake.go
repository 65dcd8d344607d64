package host

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

var toolNameRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)

// offeredFeatures is the offer for m by the schema's negotiation table (protocol.OfferFeatures):
// the version's required features, and with services the optional ones plus each
// conditional one whose host condition holds for o.
func offeredFeatures(m *manifest.Manifest, o *Options) (required, optional []string) {
	return protocol.OfferFeatures(m.APIVersion, m.JSON, o.Services != nil, o.ConditionHolds)
}

type initializeParams struct {
	APIVersion   string           `json:"api_version"`
	OctetVersion string           `json:"octet_version"`
	Extension    initExtension    `json:"extension"`
	Manifest     map[string]any   `json:"manifest"`
	Workspace    initWorkspace    `json:"workspace"`
	Session      *Session         `json:"session,omitempty"`
	Protocol     *initProtocolOut `json:"protocol,omitempty"`
}

type initExtension struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	Dir          string `json:"dir"`
	ManifestPath string `json:"manifest_path"`
	Source       string `json:"source"`
}

type initWorkspace struct {
	Root    string `json:"root"`
	Trusted bool   `json:"trusted"`
}

type initProtocolOut struct {
	Version          string     `json:"version"`
	RequiredFeatures []string   `json:"required_features"`
	OptionalFeatures []string   `json:"optional_features"`
	Limits           initLimits `json:"limits"`
}

type initLimits struct {
	MaxConcurrentRequests int `json:"max_concurrent_requests"`
	MaxMessageBytes       int `json:"max_message_bytes,omitempty"`
	MaxPendingRequests    int `json:"max_pending_requests,omitempty"`
}

// initializeResult is the extension's answer. Unknown fields are refused by decodeStrict.
type initializeResult struct {
	APIVersion    string           `json:"api_version"`
	Name          string           `json:"name"`
	Version       string           `json:"version"`
	Tools         []ToolDefinition `json:"tools"`
	Commands      []commandDef     `json:"commands"`
	Hooks         []string         `json:"hooks,omitempty"`
	UI            []string         `json:"ui,omitempty"`
	Context       *bool            `json:"context,omitempty"`
	ToolRenderers []string         `json:"tool_renderers,omitempty"`
	Protocol      *initProtocolIn  `json:"protocol,omitempty"`
}

type commandDef struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type initProtocolIn struct {
	Version  string   `json:"version"`
	Features []string `json:"features"`
	Limits   struct {
		MaxConcurrentRequests int `json:"max_concurrent_requests"`
	} `json:"limits"`
	LifecycleEvents []string `json:"lifecycle_events,omitempty"`
}

func buildInitialize(e *discovery.Entry, m *manifest.Manifest, o *Options) *initializeParams {
	p := &initializeParams{
		APIVersion:   m.APIVersion,
		OctetVersion: o.OctetVersion,
		Extension:    initExtension{Name: m.Name, Version: m.Version, Dir: m.Dir, ManifestPath: m.Path, Source: string(e.Source)},
		Manifest:     m.JSON,
		Workspace:    initWorkspace{Root: o.Workspace, Trusted: o.WorkspaceTrusted},
	}
	if o.Session.SessionID != "" || o.Session.Model != nil {
		s := o.Session
		p.Session = &s
	}
	if m.APIVersion != "0.1" {
		required, optional := offeredFeatures(m, o)
		p.Protocol = &initProtocolOut{
			Version:          m.APIVersion,
			RequiredFeatures: required,
			OptionalFeatures: optional,
			Limits:           initLimits{MaxConcurrentRequests: o.MaxConcurrency, MaxMessageBytes: o.MaxMessageBytes, MaxPendingRequests: protocol.MaxPendingRequests},
		}
	}
	return p
}

// negotiated is what a successful handshake settled.
type negotiated struct {
	result      initializeResult
	features    map[string]bool
	concurrency int
	lifecycle   []string
}

// offer is what p offered, for checkInitialize.
func (p *initializeParams) offer(maxConcurrency int) InitializeOffer {
	o := InitializeOffer{APIVersion: p.APIVersion, MaxConcurrency: maxConcurrency}
	if p.Protocol != nil {
		o.RequiredFeatures, o.OptionalFeatures = p.Protocol.RequiredFeatures, p.Protocol.OptionalFeatures
	}
	return o
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
	if err := validateSchema(initializeResultDef(offer.APIVersion), raw); err != nil {
		return nil, refuse("%v", err)
	}
	var res initializeResult
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		return nil, refuse("%v", err)
	}
	if res.APIVersion != offer.APIVersion {
		return nil, refuse("api_version %q differs from the requested %q; versions are exact", res.APIVersion, offer.APIVersion)
	}
	if res.Name != m.Name || res.Version != m.Version {
		return nil, refuse("name/version %s/%s differ from the manifest's %s/%s", res.Name, res.Version, m.Name, m.Version)
	}
	n := &negotiated{result: res, features: map[string]bool{}, concurrency: 1}
	if api01 {
		if res.Protocol != nil {
			return nil, refuse("API 0.1 forbids the protocol block")
		}
	} else {
		if res.Protocol == nil {
			return nil, refuse("API %s requires the protocol block", offer.APIVersion)
		}
		if res.Protocol.Version != offer.APIVersion {
			return nil, refuse("protocol.version %q differs from the offered %q", res.Protocol.Version, offer.APIVersion)
		}
		got, err := protocol.CheckAnswer(offer.RequiredFeatures, offer.OptionalFeatures, res.Protocol.Features)
		if err != nil {
			return nil, refuse("%v", err)
		}
		n.features = got
		c := res.Protocol.Limits.MaxConcurrentRequests
		if c < 1 {
			return nil, refuse("protocol.limits.max_concurrent_requests must be at least 1, got %d", c)
		}
		n.concurrency = min(c, offer.MaxConcurrency)
		for _, ev := range res.Protocol.LifecycleEvents {
			if !contains(protocol.LifecycleEvents, ev) {
				return nil, refuse("lifecycle_events names unknown event %q", ev)
			}
		}
		n.lifecycle = res.Protocol.LifecycleEvents
	}
	if err := checkTools(res.Tools, m, n.features["dynamic_tools"], api01); err != nil {
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
	}{{"hooks", res.Hooks, m.Contributes.Hooks}, {"ui", res.UI, m.Contributes.UI}, {"tool_renderers", res.ToolRenderers, m.Contributes.ToolRenderers}} {
		for _, g := range pair.got {
			if !contains(pair.want, g) {
				return nil, refuse("%s entry %q is not declared in the manifest", pair.what, g)
			}
		}
	}
	if res.Context != nil && *res.Context && !m.Contributes.Context {
		return nil, refuse("context is true but the manifest does not declare contributes.context")
	}
	if !n.features["dynamic_tools"] {
		for _, r := range m.Contributes.ToolRenderers {
			if !contains(m.Contributes.Tools, r) {
				return nil, refuse("manifest renderer %q names a tool that is not in contributes.tools and dynamic_tools was not negotiated", r)
			}
		}
	}
	return n, nil
}

func checkTools(tools []ToolDefinition, m *manifest.Manifest, dynamic, api01 bool) error {
	seen := map[string]bool{}
	names := make([]string, 0, len(tools))
	if len(tools) > protocol.MaxCatalogTools {
		return fmt.Errorf("%d tools exceed the %d-tool catalog limit", len(tools), protocol.MaxCatalogTools)
	}
	for i, t := range tools {
		if !toolNameRE.MatchString(t.Name) {
			return fmt.Errorf("tools[%d].name %q is not a valid tool name", i, t.Name)
		}
		if seen[t.Name] {
			return fmt.Errorf("tool %q is listed twice", t.Name)
		}
		seen[t.Name] = true
		if utf8.RuneCountInString(t.Description) > 4096 {
			return fmt.Errorf("tools[%d].description exceeds 4096 characters", i)
		}
		if len(t.Parameters) == 0 || t.Parameters[0] != '{' {
			return fmt.Errorf("tools[%d].parameters must be a JSON Schema object", i)
		}
		if len(t.OutputSchema) > 0 && api01 {
			return fmt.Errorf("tools[%d].output_schema is not allowed in API 0.1", i)
		}
		if len(t.OutputSchema) > 0 && t.OutputSchema[0] != '{' {
			return fmt.Errorf("tools[%d].output_schema must be a JSON Schema object", i)
		}
		names = append(names, t.Name)
	}
	if !dynamic && !sameSet(names, m.Contributes.Tools) {
		return fmt.Errorf("tools %v differ from the manifest's %v (without dynamic_tools they must match exactly)", names, m.Contributes.Tools)
	}
	return nil
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
