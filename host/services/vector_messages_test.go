package services_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestVectorMessagesGolden pins the router's answer (code and message, or the diagnostic of a
// notification) to every params vector of every extension->host method in schema/vectors.
// The golden was recorded from the host before it moved onto the generated types, so a change
// of wording or of which fault is reported shows here. OCTET_UPDATE_GOLDEN=1 rewrites it.
func TestVectorMessagesGolden(t *testing.T) {
	root := filepath.Join("..", "..", "schema")
	raw, _ := os.ReadFile(filepath.Join(root, "methods.json"))
	var reg struct {
		Methods []struct {
			Name, Direction, Kind string
			Params                map[string]string
		}
	}
	json.Unmarshal(raw, &reg)
	var lines []string
	for _, m := range reg.Methods {
		if m.Direction != "extension_to_host" {
			continue
		}
		typ := ""
		for versions, tn := range m.Params {
			if strings.Contains(versions, "0.4") {
				typ = tn
			}
		}
		for _, kind := range []string{"invalid", "valid"} {
			files, _ := filepath.Glob(filepath.Join(root, "vectors", typ, kind, "*.json"))
			for _, f := range files {
				body, _ := os.ReadFile(f)
				e := newEnv(t, nil)
				var msg string
				if m.Kind == "request" {
					_, werr := e.call(m.Name, json.RawMessage(body))
					if werr != nil {
						msg = fmt.Sprintf("%d %s", werr.Code, werr.Message)
					}
				} else {
					e.notify(m.Name, json.RawMessage(body))
					msg = e.lastDiagnostic()
				}
				lines = append(lines, m.Name+" "+kind+"/"+filepath.Base(f)+" => "+msg)
			}
		}
	}
	sort.Strings(lines)
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join("testdata", "vector-messages.golden")
	if os.Getenv("OCTET_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) < 30 {
		t.Fatalf("only %d vectors found; is schema/vectors laid out as expected?", len(lines))
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("answer differs:\n got  %s\n want %s", gl[i], wl[i])
			}
		}
		if len(gl) != len(wl) {
			t.Errorf("%d answers, golden has %d", len(gl), len(wl))
		}
	}
}
