package main

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/octet-kit/octet/bench/internal/target"
)

// The hello-world targets are measured in the memory, cold-start and scale phases beside
// the fixture and the floor, and left out where the scenarios need the fixture's tools.
func TestPhaseTargets(t *testing.T) {
	r := &runner{targets: []target.Target{
		{ID: "floor-go", Kind: target.Floor}, {ID: "octet-go", Kind: target.SDK},
		{ID: "hello-go", Kind: target.Hello}, {ID: "mcp-go", Kind: target.MCP},
	}}
	for phase, want := range map[string][]string{
		"latency": {"floor-go", "octet-go", "mcp-go"},
		"crash":   {"floor-go", "octet-go", "mcp-go"},
		"cold":    {"floor-go", "octet-go", "hello-go", "mcp-go"},
		"memory":  {"floor-go", "octet-go", "hello-go"},
		"scale":   {"floor-go", "octet-go", "hello-go"},
	} {
		var got []string
		for _, tg := range r.phaseTargets(phase) {
			got = append(got, tg.ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", phase, got, want)
		}
	}
}

// Every language's plan has a hello-world target whose Echo is hello_world, beside the
// fixture, both named by what they carry.
func TestPlanHasHelloWorldTargets(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]target.Target{}
	for _, tg := range plan(root, t.TempDir(), "host") {
		byID[tg.ID] = tg
	}
	for _, lang := range langs {
		h, ok := byID["hello-"+lang]
		if !ok {
			t.Errorf("no hello-%s target", lang)
			continue
		}
		if h.Kind != target.Hello {
			t.Errorf("hello-%s: kind %q", lang, h.Kind)
		}
		if f := byID["octet-"+lang]; f.Kind != target.SDK {
			t.Errorf("octet-%s: kind %q", lang, f.Kind)
		}
	}
	if h := byID["hello-python"]; h.Name != "octet SDK hello-world, 1 tool (Python)" || h.Missing != "" || h.Start == nil || h.Direct == nil || h.StartGroup == nil {
		t.Errorf("hello-python: %+v", h)
	}
	// The Go examples are started as the binary setup builds; in an empty bench dir there is none.
	if h := byID["hello-go"]; h.Missing == "" {
		t.Errorf("hello-go without a built binary is not reported missing: %+v", h)
	}
}
