package host_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host"
)

// TestInitializeRefusalsGolden pins the refusal of every invalid initialize-result vector in
// schema/vectors (the generated validator's verdict, located and quoted by the host).
// OCTET_UPDATE_GOLDEN=1 rewrites the golden.
func TestInitializeRefusalsGolden(t *testing.T) {
	var lines []string
	for _, typ := range []string{"InitializeResult", "InitializeResult01"} {
		api := "0.4"
		if typ == "InitializeResult01" {
			api = "0.1"
		}
		m := initManifest(t, api)
		files, _ := filepath.Glob(filepath.Join("..", "schema", "vectors", typ, "invalid", "*.json"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			_, err := host.CheckInitialize(b, m, host.InitializeOffer{APIVersion: api, RequiredFeatures: []string{"request_cancellation", "content_parts"}})
			verdict := "accepted"
			if err != nil {
				verdict = strings.ReplaceAll(err.Error(), "\n", " ")
			}
			lines = append(lines, typ+"/"+filepath.Base(f)+" => "+verdict)
		}
	}
	sort.Strings(lines)
	if len(lines) < 20 {
		t.Fatalf("only %d vectors found; is schema/vectors laid out as expected?", len(lines))
	}
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join("testdata", "initialize-refusals.golden")
	if os.Getenv("OCTET_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("initialize refusals differ from %s:\n%s", golden, got)
	}
}
