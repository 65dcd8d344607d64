package conformance

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// InitOptions shape the initialize request a check sends.
type InitOptions struct {
	APIVersion    string         // default: the manifest's
	Manifest      map[string]any // default: the validated manifest
	MaxConcurrent int            // default 64
	MaxPending    int            // 0: not sent
	Withhold      []string       // optional features not to offer
	Grant         *Grant         // declarations the check adds to the manifest's capabilities
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
func (r *InitResult) HasFeature(f protocol.Feature) bool {
	return r.Protocol != nil && slices.Contains(r.Protocol.Features, string(f))
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
		// The conformance host serves everything: every host condition holds, so the offer
		// is the schema table's whole offer for this version and manifest.
		required, optional := protocol.OfferFeatures(api, man, true, func(protocol.HostCondition) bool { return true })
		optional = slices.DeleteFunc(optional, func(f string) bool { return slices.Contains(o.Withhold, f) })
		limits := map[string]any{"max_concurrent_requests": conc, "max_message_bytes": MaxMessageBytes}
		if o.MaxPending > 0 {
			limits["max_pending_requests"] = o.MaxPending
		}
		p["protocol"] = map[string]any{
			"version": api, "required_features": required,
			"optional_features": optional, "limits": limits,
		}
	}
	return p
}

// validateInit judges an initialize result exactly as the reference host does: it calls
// the host's own CheckInitialize (wire.md §5) with the offer in params and the manifest
// as declared (a check may have doctored it), and returns the refusal, if any, as the
// problem; none means the host accepts the extension.
func validateInit(params map[string]any, raw json.RawMessage, ext *Extension, declared map[string]any) (*InitResult, []string) {
	var r InitResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, []string{fmt.Sprintf("initialize result does not decode: %v", err)}
	}
	m := ext.Manifest
	if declared != nil {
		doctored := *ext.Manifest
		// Fresh contributions and capabilities, so decoding never writes into the slices
		// the loaded manifest shares.
		doctored.Contributes, doctored.Capabilities = manifest.Contributes{}, manifest.Capabilities{}
		b, err := json.Marshal(declared)
		if err == nil {
			err = json.Unmarshal(b, &doctored)
		}
		if err != nil {
			return nil, []string{fmt.Sprintf("the declared manifest does not decode: %v", err)}
		}
		m = &doctored
	}
	offer := host.InitializeOffer{}
	offer.APIVersion, _ = params["api_version"].(string)
	if proto, ok := params["protocol"].(map[string]any); ok {
		offer.RequiredFeatures = stringList(proto["required_features"])
		offer.OptionalFeatures = stringList(proto["optional_features"])
		limits, _ := proto["limits"].(map[string]any)
		offer.MaxConcurrency = toInt(limits["max_concurrent_requests"])
	}
	if _, err := host.CheckInitialize(raw, m, offer); err != nil {
		return &r, []string{err.Error()}
	}
	return &r, nil
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
