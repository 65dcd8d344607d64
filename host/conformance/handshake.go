package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/octet-kit/octet/host"
)

// Features the host sends as required and the optional ones it can serve
// (docs/design/wire.md §2). The conformance host serves all of them.
var (
	requiredFeatures = []string{"request_cancellation", "content_parts"}
	optionalFeatures = []string{"request_progress", "artifacts", "lifecycle_events", "policy_intents",
		"dynamic_tools", "progress_decoration", "agent_sessions", "delegation_telemetry_v1", "approvals"}
)

// InitOptions shape the initialize request a check sends.
type InitOptions struct {
	APIVersion    string         // default: the manifest's
	Manifest      map[string]any // default: the validated manifest
	MaxConcurrent int            // default 64
	MaxPending    int            // 0: not sent
	Withhold      []string       // optional features not to offer
}

// InitResult is the part of initialize.result the host validates.
type InitResult struct {
	APIVersion string `json:"api_version"`
	Name       string `json:"name"`
	Version    string `json:"version"`
	Tools      []struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		Parameters   json.RawMessage `json:"parameters"`
		OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	} `json:"tools"`
	Commands []struct {
		Name string `json:"name"`
	} `json:"commands"`
	Hooks         []string `json:"hooks"`
	UI            []string `json:"ui"`
	ToolRenderers []string `json:"tool_renderers"`
	Protocol      *struct {
		Version  string   `json:"version"`
		Features []string `json:"features"`
		Limits   struct {
			MaxConcurrentRequests int `json:"max_concurrent_requests"`
		} `json:"limits"`
	} `json:"protocol"`
}

// HasFeature reports whether the feature was negotiated.
func (r *InitResult) HasFeature(f string) bool {
	return r.Protocol != nil && slices.Contains(r.Protocol.Features, f)
}

// initParams builds initialize.params for the extension.
func initParams(ext *Extension, o InitOptions) map[string]any {
	api := o.APIVersion
	if api == "" {
		api = ext.Manifest.APIVersion
	}
	man := o.Manifest
	if man == nil {
		man = ext.Manifest.JSON
	}
	conc := o.MaxConcurrent
	if conc == 0 {
		conc = 64
	}
	p := map[string]any{
		"api_version":   api,
		"octet_version": host.OctetVersion,
		"extension": map[string]any{
			"name": ext.Manifest.Name, "version": ext.Manifest.Version, "dir": ext.Dir,
			"manifest_path": ext.Manifest.Path, "source": "explicit",
		},
		"manifest":  man,
		"workspace": map[string]any{"root": ext.Workspace, "trusted": true},
		"session":   map[string]any{"session_id": "conformance-session"},
	}
	if api != "0.1" {
		optional := slices.Clone(optionalFeatures)
		if len(ext.Manifest.Capabilities.Secrets) > 0 {
			optional = append(optional, "secrets")
		}
		if api == "0.4" {
			optional = append(optional, "kv")
		}
		optional = slices.DeleteFunc(optional, func(f string) bool { return slices.Contains(o.Withhold, f) })
		limits := map[string]any{"max_concurrent_requests": conc, "max_message_bytes": MaxMessageBytes}
		if o.MaxPending > 0 {
			limits["max_pending_requests"] = o.MaxPending
		}
		p["protocol"] = map[string]any{
			"version": api, "required_features": requiredFeatures,
			"optional_features": optional, "limits": limits,
		}
	}
	return p
}

// validateInit applies the host's checks to an initialize result (wire.md §5) and
// returns every problem found; none means the host accepts the extension.
func validateInit(params map[string]any, raw json.RawMessage, ext *Extension, declared map[string]any) (*InitResult, []string) {
	var r InitResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, []string{fmt.Sprintf("initialize result does not decode: %v", err)}
	}
	var probs []string
	add := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	api, _ := params["api_version"].(string)
	if r.APIVersion != api {
		add("api_version %q, the host offered %q", r.APIVersion, api)
	}
	if r.Name != ext.Manifest.Name || r.Version != ext.Manifest.Version {
		add("name/version %s/%s, the manifest says %s/%s", r.Name, r.Version, ext.Manifest.Name, ext.Manifest.Version)
	}
	contributes, _ := declared["contributes"].(map[string]any)
	wantTools := stringList(contributes["tools"])
	var gotTools []string
	for _, t := range r.Tools {
		gotTools = append(gotTools, t.Name)
		if len(t.Parameters) == 0 || t.Parameters[0] != '{' {
			add("tool %q has no parameters object", t.Name)
		}
	}
	var gotCommands []string
	for _, c := range r.Commands {
		gotCommands = append(gotCommands, c.Name)
	}
	dynamic := r.HasFeature("dynamic_tools")
	if d := setDiff(wantTools, gotTools); len(d) > 0 && !dynamic {
		add("tools declared in the manifest but not served: %v", d)
	}
	if d := setDiff(gotTools, wantTools); len(d) > 0 && !dynamic {
		add("tools served but not declared in the manifest: %v", d)
	}
	if d := symDiff(stringList(contributes["commands"]), gotCommands); len(d) > 0 {
		add("commands differ from the manifest's: %v", d)
	}
	if d := setDiff(r.Hooks, stringList(contributes["hooks"])); len(d) > 0 {
		add("hooks not declared in the manifest: %v", d)
	}
	if d := setDiff(r.UI, stringList(contributes["ui"])); len(d) > 0 {
		add("ui surfaces not declared in the manifest: %v", d)
	}
	if d := setDiff(r.ToolRenderers, stringList(contributes["tool_renderers"])); len(d) > 0 {
		add("tool renderers not declared in the manifest: %v", d)
	}
	proto, _ := params["protocol"].(map[string]any)
	switch {
	case proto == nil && r.Protocol != nil:
		add("API 0.1 forbids the protocol block")
	case proto != nil && r.Protocol == nil:
		add("the protocol block is required for API %s", api)
	case proto != nil:
		if r.Protocol.Version != api {
			add("protocol.version %q, the host offered %q", r.Protocol.Version, api)
		}
		offered := append(stringList(proto["required_features"]), stringList(proto["optional_features"])...)
		if d := setDiff(r.Protocol.Features, offered); len(d) > 0 {
			add("features not offered by the host: %v", d)
		}
		if d := setDiff(stringList(proto["required_features"]), r.Protocol.Features); len(d) > 0 {
			add("required features missing: %v", d)
		}
		if dups := duplicates(r.Protocol.Features); len(dups) > 0 {
			add("features repeated: %v", dups)
		}
		limits, _ := proto["limits"].(map[string]any)
		if c := r.Protocol.Limits.MaxConcurrentRequests; c < 1 || c > toInt(limits["max_concurrent_requests"]) {
			add("max_concurrent_requests %d is outside 1..%v", c, limits["max_concurrent_requests"])
		}
	}
	return &r, probs
}

func toInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case float64:
		return int(n)
	}
	return 0
}

func stringList(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case []any:
		var out []string
		for _, x := range l {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// setDiff returns the members of a missing from b, sorted.
func setDiff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

func symDiff(a, b []string) []string { return append(setDiff(a, b), setDiff(b, a)...) }

func duplicates(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range l {
		if seen[x] {
			out = append(out, x)
		}
		seen[x] = true
	}
	return out
}
