package host_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
)

func initManifest(t *testing.T, api string) *manifest.Manifest {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ini")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, manifest.FileName)
	text := "name = \"ini\"\nversion = \"1.2.3\"\napi_version = \"" + api + "\"\n[entrypoint]\ncommand = \"x\"\n[contributes]\ntools = [\"echo\"]\n"
	os.WriteFile(path, []byte(text), 0o644)
	m, diags := manifest.Load(path, manifest.Options{OctetVersion: host.OctetVersion})
	if m == nil {
		t.Fatalf("manifest: %v", diags)
	}
	return m
}

// answer is a 0.4 initialize result the host accepts, with mutate applied.
func answer(mutate func(map[string]any)) json.RawMessage {
	a := map[string]any{
		"api_version": "0.4", "name": "ini", "version": "1.2.3", "commands": []any{},
		"tools": []any{map[string]any{"name": "echo", "description": "echo", "parameters": map[string]any{"type": "object"}}},
		"protocol": map[string]any{"version": "0.4", "features": []any{"request_cancellation", "kv", "content_parts"},
			"limits": map[string]any{"max_concurrent_requests": 100}},
	}
	if mutate != nil {
		mutate(a)
	}
	b, _ := json.Marshal(a)
	return b
}

var offer04 = host.InitializeOffer{APIVersion: "0.4", RequiredFeatures: []string{"request_cancellation", "content_parts"},
	OptionalFeatures: []string{"kv", "artifacts"}, MaxConcurrency: 8}

func TestCheckInitializeAccepts(t *testing.T) {
	n, err := host.CheckInitialize(answer(nil), initManifest(t, "0.4"), offer04)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"content_parts", "kv", "request_cancellation"}; !reflect.DeepEqual(n.Features, want) {
		t.Errorf("features %v, want %v (sorted)", n.Features, want)
	}
	if n.Concurrency != 8 {
		t.Errorf("concurrency %d, want the offer's cap 8", n.Concurrency)
	}
	if len(n.Tools) != 1 || n.Tools[0].Name != "echo" {
		t.Errorf("tools %+v", n.Tools)
	}
	// No cap given: MAX_IN_FLIGHT (64) applies.
	n, err = host.CheckInitialize(answer(nil), initManifest(t, "0.4"), host.InitializeOffer{APIVersion: "0.4", RequiredFeatures: offer04.RequiredFeatures, OptionalFeatures: offer04.OptionalFeatures})
	if err != nil || n.Concurrency != 64 {
		t.Fatalf("default cap: %+v %v", n, err)
	}
}

func TestCheckInitializeRefuses(t *testing.T) {
	proto := func(a map[string]any) map[string]any { return a["protocol"].(map[string]any) }
	cases := map[string]struct {
		mutate func(map[string]any)
		want   string
	}{
		"other api version":        {func(a map[string]any) { a["api_version"] = "0.2" }, "api_version"},
		"other name":               {func(a map[string]any) { a["name"] = "other" }, "name/version"},
		"required feature missing": {func(a map[string]any) { proto(a)["features"] = []any{"request_cancellation"} }, `required feature "content_parts"`},
		"feature not offered": {func(a map[string]any) {
			proto(a)["features"] = []any{"request_cancellation", "content_parts", "secrets"}
		}, `"secrets" was not offered`},
		"feature twice": {func(a map[string]any) {
			proto(a)["features"] = []any{"request_cancellation", "content_parts", "kv", "kv"}
		}, "equal"}, // the schema catches it first
		"tool not in the manifest":  {func(a map[string]any) { a["tools"] = []any{} }, "echo"},
		"unknown field":             {func(a map[string]any) { a["extra"] = true }, "extra"},
		"protocol block missing":    {func(a map[string]any) { delete(a, "protocol") }, "protocol"},
		"undeclared command served": {func(a map[string]any) { a["commands"] = []any{map[string]any{"name": "go", "description": "d"}} }, "commands"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := host.CheckInitialize(answer(tc.mutate), initManifest(t, "0.4"), offer04)
			var se *process.StartError
			if !errors.As(err, &se) || se.Kind != process.KindRefused {
				t.Fatalf("got %v, want a refusal", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("refusal %q does not mention %q", err, tc.want)
			}
		})
	}
	// API 0.1 forbids the protocol block the 0.4 answer carries.
	_, err := host.CheckInitialize(answer(func(a map[string]any) { a["api_version"] = "0.1" }), initManifest(t, "0.1"), host.InitializeOffer{APIVersion: "0.1"})
	if err == nil {
		t.Fatal("a 0.1 answer with a protocol block was accepted")
	}
}
