// Package report turns a benchmark run into its three outputs: JSON for tooling
// (results.go), the Markdown page (markdown.go) and one SVG bar chart per table
// (svg.go). It never measures anything.
package report

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/octet-kit/octet/bench/internal/measure"
)

// Metric names, with their units, used as keys in Results.Metrics.
const (
	RTTP50     = "rtt_p50_us"     // sequential echo round trip, median of a run
	RTTP99     = "rtt_p99_us"     // sequential echo round trip, 99th percentile of a run
	Throughput = "calls_per_s_32" // echo calls/s with 32 in flight
	ColdStart  = "cold_start_ms"  // spawn to initialised
	// ColdStartDirect is the same target started directly over sdk-go/jsonrpc by the
	// harness in the same round: the extension's own start without the host's.
	ColdStartDirect = "direct_cold_start_ms"
	Callback        = "callback_us"         // one extension-to-host kv.get while serving
	Artifact16      = "artifact_16mib_mibs" // 16 MiB publish by scratch path, MiB/s end to end
	Inline256       = "artifact_256kib_ms"  // 256 KiB inline publish, ms end to end
	Cancel          = "cancel_us"           // $/cancelRequest sent to -32800 received
	Crash           = "crash_ms"            // crash tool call sent to transport error
	RatioFloor      = "p50_over_floor"      // same-rep ratio to the language's floor
	RatioMCP        = "mcp_p50_over_ours"   // same-rep: MCP p50 / our p50 (how many times faster)
	ThroughFrac     = "calls_per_s_of_floor"

	// The same target driven directly over sdk-go/jsonrpc from the harness, measured in the
	// same repetition right after it was driven through the host: the SDK's own cost
	// (direct ÷ the floor direct) apart from the host's (through the host ÷ direct).
	RTTP50Direct     = "direct_rtt_p50_us"
	ThroughputDirect = "direct_calls_per_s_32"
	HostOverDirect   = "host_p50_over_direct"        // same target, same rep
	HostTputOfDirect = "host_calls_per_s_of_direct"  // same target, same rep
	DirectOverFloor  = "direct_p50_over_floor"       // SDK direct ÷ floor direct, same rep
	DirectTputFrac   = "direct_calls_per_s_of_floor" // SDK direct ÷ floor direct, same rep

	// Memory of one extension process driven directly (measure.MemoryRun): resident set
	// once initialised, after MemoryCalls echo calls, its growth over them (after − idle),
	// and what MemoryCalls more kept (steady − after).
	IdleRSS      = "idle_rss_kib"
	RSSAfter     = "rss_after_calls_kib"
	RSSGrowth    = "rss_growth_kib"
	RSSKept      = "rss_kept_kib"
	RSSOverFloor = "idle_rss_over_floor" // same rep
)

// Target describes one measured thing.
type Target struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Lang    string `json:"lang"`
	Kind    string `json:"kind"`
	Via     string `json:"via"`
	Tools   int    `json:"tools,omitempty"` // tools the extension contributes, when read from its manifest
	Missing string `json:"missing,omitempty"`
	Note    string `json:"note,omitempty"`
}

// Machine is what the numbers were taken on.
type Machine struct {
	NProc      int       `json:"nproc"`
	CPU        string    `json:"cpu"`
	MemoryMiB  int64     `json:"memory_mib"`
	Kernel     string    `json:"kernel"`
	LoadBefore string    `json:"load_before"`
	LoadAfter  string    `json:"load_after"`
	LoadSeen   []float64 `json:"load_seen"` // 1-minute load average sampled at each repetition and phase
	Tools      []string  `json:"tools"`     // go, python3, node versions
}

// Config is how the run was sized.
type Config struct {
	Quick       bool `json:"quick"`
	Reps        int  `json:"reps"`
	Warmup      int  `json:"warmup"`
	Calls       int  `json:"calls"`
	InFlight    int  `json:"in_flight"`
	TputCalls   int  `json:"throughput_calls"`
	ColdStarts  int  `json:"cold_starts"`
	CallbackN   int  `json:"callback_n"`
	ScaleCalls  int  `json:"scale_calls"`
	ScaleRounds int  `json:"scale_rounds"`
	MemoryCalls int  `json:"memory_calls"`
}

// Results is one complete run.
type Results struct {
	Started time.Time                             `json:"started"`
	Took    string                                `json:"took"`
	Command string                                `json:"command"`
	Machine Machine                               `json:"machine"`
	Config  Config                                `json:"config"`
	Targets []Target                              `json:"targets"`
	Bare    map[string]measure.Spread             `json:"bare_start_ms"` // per language
	Metrics map[string]map[string]measure.Spread  `json:"metrics"`       // metric -> target id
	Scale   map[string]map[int][]measure.ScaleRun `json:"scale"`         // target id -> n -> runs
	Errors  map[string][]string                   `json:"errors,omitempty"`
	NA      map[string]map[string]string          `json:"not_available,omitempty"` // metric -> target id -> why
	Notes   map[string]map[string]string          `json:"notes,omitempty"`         // target id -> metric -> how it was measured
	raw     map[string]map[string][]float64
}

// New returns empty results.
func New() *Results {
	return &Results{
		Started: time.Now().UTC(),
		Bare:    map[string]measure.Spread{},
		Metrics: map[string]map[string]measure.Spread{},
		Scale:   map[string]map[int][]measure.ScaleRun{},
		Errors:  map[string][]string{},
		NA:      map[string]map[string]string{},
		Notes:   map[string]map[string]string{},
		raw:     map[string]map[string][]float64{},
	}
}

// Add records one sample of metric for target id.
func (r *Results) Add(metric, id string, v float64) {
	if r.raw[metric] == nil {
		r.raw[metric] = map[string][]float64{}
	}
	r.raw[metric][id] = append(r.raw[metric][id], v)
}

// Samples returns what Add recorded so far.
func (r *Results) Samples(metric, id string) []float64 { return r.raw[metric][id] }

// NotAvailable records why metric cannot be measured for id.
func (r *Results) NotAvailable(metric, id, why string) {
	if r.NA[metric] == nil {
		r.NA[metric] = map[string]string{}
	}
	r.NA[metric][id] = why
}

// Note records, once, how metric was measured for id when it differs from the rest.
func (r *Results) Note(id, metric, text string) {
	if r.Notes[id] == nil {
		r.Notes[id] = map[string]string{}
	}
	r.Notes[id][metric] = text
}

// Fail records an error for id without stopping the run.
func (r *Results) Fail(id string, err error) { r.Errors[id] = append(r.Errors[id], err.Error()) }

// Finish summarises every metric's samples.
func (r *Results) Finish() {
	for metric, byID := range r.raw {
		r.Metrics[metric] = map[string]measure.Spread{}
		for id, xs := range byID {
			r.Metrics[metric][id] = measure.Summarize(xs)
		}
	}
}

// Get returns the summary of metric for id and whether it exists.
func (r *Results) Get(metric, id string) (measure.Spread, bool) {
	s, ok := r.Metrics[metric][id]
	return s, ok && len(s.Samples) > 0
}

// Load reads results written by WriteJSON.
func Load(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := New()
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("results %s: %w", path, err)
	}
	return r, nil
}

// WriteJSON writes the results, indented, to path.
func (r *Results) WriteJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
