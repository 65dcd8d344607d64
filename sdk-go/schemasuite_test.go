package octet

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/sdk-go/internal/jsonschema"
)

// The differential test of the SDK's validator (internal/jsonschema, which
// runs the suite and the shared corpora itself) against the oracle
// (oracle_test.go): over every case of the official JSON Schema Test Suite,
// draft 2020-12 (testsuites/README.md), both give the same verdict and, for an
// invalid instance, the same reported fault. OCTET_UPDATE_SUITE_FAULTS=1
// rewrites testsuites/json-schema-faults.json from the oracle.

const suiteDir = "../testsuites/json-schema-test-suite"

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// suiteRemotes loads remotes/ as http://localhost:1234/... documents, parsed by
// the oracle's reader (json.Number numbers, which the SDK's validator reads too).
func suiteRemotes(t testing.TB) map[string]any {
	out := map[string]any{}
	root := filepath.Join(suiteDir, "remotes")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := validator.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out["http://localhost:1234/"+filepath.ToSlash(rel)] = doc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func parseJSON(t testing.TB, raw []byte) any {
	v, err := validator.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// suiteFault is one entry of testsuites/json-schema-faults.json.
type suiteFault struct {
	File    string `json:"file"`
	Case    string `json:"case"`
	Test    string `json:"test"`
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Reason  string `json:"reason"`
}

const suiteFaultsFile = "../testsuites/json-schema-faults.json"

// TestValidatorMatchesOracleOnSuite: every required case, both validators.
func TestValidatorMatchesOracleOnSuite(t *testing.T) {
	remotes := suiteRemotes(t)
	files, _ := filepath.Glob(filepath.Join(suiteDir, "tests", "draft2020-12", "*.json"))
	if len(files) < 40 {
		t.Fatalf("only %d suite files found", len(files))
	}
	var oracle []suiteFault
	cases := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var groups []suiteGroup
		if err := json.Unmarshal(raw, &groups); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(suiteDir, f)
		rel = filepath.ToSlash(rel)
		for gi, g := range groups {
			url := "http://localhost:1234/suite/" + itoa(gi) + ".json"
			old, err := oracleCompile(g.Schema, oracleOptions{remotes: remotes, url: url})
			if err != nil {
				t.Fatalf("%s / %s: the oracle refuses the schema: %v", rel, g.Description, err)
			}
			s, err := jsonschema.Compile(parseJSON(t, g.Schema), jsonschema.Options{Remotes: remotes, BaseURI: url})
			if err != nil {
				t.Fatalf("%s / %s: %v", rel, g.Description, err)
			}
			for _, tc := range g.Tests {
				cases++
				inst := parseJSON(t, tc.Data)
				want, wantFault := oracleFault(old, inst)
				got, gotFault := s.Check(inst)
				name := rel + " / " + g.Description + " / " + tc.Description
				if gotFault != wantFault || s.Valid(inst) == gotFault {
					t.Errorf("%s: fault %v, the oracle's %v", name, gotFault, wantFault)
					continue
				}
				if !wantFault {
					continue
				}
				oracle = append(oracle, suiteFault{rel, g.Description, tc.Description, want.pointer(), want.keyword, want.reason})
				if got.Pointer() != want.pointer() || got.Keyword != want.keyword || got.Reason != want.reason {
					t.Errorf("%s:\n got    %q %q %q\n oracle %q %q %q", name, got.Pointer(), got.Keyword, got.Reason, want.pointer(), want.keyword, want.reason)
				}
			}
		}
	}
	t.Logf("%d suite cases, %d faults: the SDK's validator and the oracle agree", cases, len(oracle))
	sort.SliceStable(oracle, func(i, j int) bool {
		a, b := oracle[i], oracle[j]
		return a.File+"\x00"+a.Case+"\x00"+a.Test < b.File+"\x00"+b.Case+"\x00"+b.Test
	})
	if os.Getenv("OCTET_UPDATE_SUITE_FAULTS") == "1" {
		var b bytes.Buffer
		b.WriteString("[\n")
		for i, f := range oracle {
			line, _ := json.Marshal(f)
			b.Write(line)
			if i < len(oracle)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("]\n")
		if err := os.WriteFile(suiteFaultsFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(suiteFaultsFile)
	if err != nil {
		t.Fatal(err)
	}
	var want []suiteFault
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(oracle) {
		t.Fatalf("the oracle gives %d faults, %s has %d (OCTET_UPDATE_SUITE_FAULTS=1 rewrites it)", len(oracle), suiteFaultsFile, len(want))
	}
	for i := range want {
		if want[i] != oracle[i] {
			t.Errorf("oracle %+v\nfile   %+v", oracle[i], want[i])
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
