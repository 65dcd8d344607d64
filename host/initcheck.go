package host

import (
	"encoding/json"
	"sort"

	"github.com/octet-kit/octet/host/manifest"
)

// InitializeOffer is what a host offered in initialize.params; an answer is judged
// against it.
type InitializeOffer struct {
	// APIVersion is the exact version requested ("0.1", "0.2" or "0.4").
	APIVersion string
	// RequiredFeatures and OptionalFeatures are protocol.required_features and
	// protocol.optional_features as sent (API 0.2/0.4; ignored for 0.1).
	RequiredFeatures []string
	OptionalFeatures []string
	// MaxConcurrency caps the negotiated concurrency; 0 is MAX_IN_FLIGHT.
	MaxConcurrency int
}

// Negotiated is what an accepted initialize answer settled.
type Negotiated struct {
	Features        []string         // negotiated features, sorted (none for API 0.1)
	Concurrency     int              // the answer's max_concurrent_requests capped by the offer; 1 for API 0.1
	LifecycleEvents []string         // lifecycle methods the extension subscribed to
	Tools           []ToolDefinition // the initialize catalog
	Commands        []string         // command names, in the answer's order
}

// CheckInitialize applies every check the reference host makes on an initialize answer
// (wire.md §5) to raw, the JSON-RPC result, for the extension of manifest m: the schema
// and no unknown fields, the exact API version, name and version equal to the manifest's,
// the protocol block present exactly for API 0.2/0.4 with the offered version, features
// offered, not repeated and every required one present, concurrency ≥ 1, known lifecycle
// events, tools valid and equal to the manifest's unless dynamic_tools was negotiated,
// commands equal to the manifest's, hooks, ui, tool renderers and context within it.
//
// The host runs exactly this on every start, so a conformance suite calling it judges an
// answer as the host would. A refusal is a *process.StartError of kind refused whose
// message says what was wrong; it is deterministic, so the host never restarts on it.
func CheckInitialize(raw json.RawMessage, m *manifest.Manifest, offer InitializeOffer) (*Negotiated, error) {
	n, err := checkInitialize(raw, m, offer)
	if err != nil {
		return nil, err
	}
	out := &Negotiated{Concurrency: n.concurrency, LifecycleEvents: n.lifecycle, Tools: n.tools}
	for f := range n.features {
		out.Features = append(out.Features, f)
	}
	sort.Strings(out.Features)
	for _, c := range n.commands {
		out.Commands = append(out.Commands, c.Name)
	}
	return out, nil
}
