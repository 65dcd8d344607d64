package manifest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/schema"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// FuzzParse feeds arbitrary TOML to the manifest parser. A refusal carries diagnostics
// that name the file, a rule and a message, and no manifest; an accepted manifest's JSON
// form (sent verbatim in initialize) is valid both for santhosh-tekuri on the real schema
// and for the generated validator the SDKs run, and its typed fields agree with it. The
// same bytes always get the same answer.
func FuzzParse(f *testing.F) {
	f.Add([]byte(valid))
	f.Add([]byte("name = \"x\"\nversion = \"0.1.0\"\napi_version = \"0.1\"\n[entrypoint]\ncommand = \"./run\"\n"))
	f.Add([]byte("name = \"x\"\nversion = 1979-05-27\n"))
	f.Add([]byte("name = \"x\"\n[entrypoint]\ncommand = \"../../bin/sh\"\nargs = [1, \"a\"]\n"))
	f.Add([]byte("[contributes]\ntools = [\"a\", \"a\"]\n[[runtime]]\n"))
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*", manifest.FileName))
	for _, p := range examples {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	sch, err := schema.Manifest()
	if err != nil {
		f.Fatal(err)
	}
	const file = "/ext/git-tools/extension.toml"
	f.Fuzz(func(t *testing.T, data []byte) {
		m, diags := manifest.Parse(data, file, opts)
		m2, diags2 := manifest.Parse(data, file, opts)
		if !reflect.DeepEqual(diags, diags2) || (m == nil) != (m2 == nil) {
			t.Fatalf("two parses of the same bytes differ:\n%v\n%v", diags, diags2)
		}
		if len(diags) > 0 {
			if m != nil {
				t.Fatalf("a manifest returned with diagnostics %v", diags)
			}
			for _, d := range diags {
				if d.File != file || d.Rule == "" || d.Message == "" {
					t.Fatalf("diagnostic without file, rule or message: %+v", d)
				}
			}
			return
		}
		if m == nil {
			t.Fatal("neither a manifest nor a diagnostic")
		}
		raw, err := json.Marshal(m.JSON)
		if err != nil {
			t.Fatalf("accepted manifest does not encode: %v", err)
		}
		doc, err := schema.Decode(raw)
		if err != nil {
			t.Fatalf("accepted manifest's JSON %s is refused by the strict decoder: %v", raw, err)
		}
		if err := sch.Validate(doc); err != nil {
			t.Fatalf("accepted manifest is invalid for the schema: %v\n%s", err, raw)
		}
		if err := protocol.Validate("Manifest", doc); err != nil {
			t.Fatalf("accepted manifest is invalid for the generated validator: %v\n%s", err, raw)
		}
		if m.Name != m.JSON["name"] || m.Version != m.JSON["version"] || m.Entrypoint.Command == "" {
			t.Fatalf("typed fields %+v disagree with %s", m, raw)
		}
	})
}
