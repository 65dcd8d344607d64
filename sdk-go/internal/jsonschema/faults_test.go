package jsonschema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The two shared fault corpora: testsuites/json-schema-faults.json (the
// fault of every invalid required suite case) and schema/vectors/faults/ (the
// contract's vectors), which the Python and TypeScript tests check too.

type suiteFault struct {
	File    string `json:"file"`
	Case    string `json:"case"`
	Test    string `json:"test"`
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Reason  string `json:"reason"`
}

// TestJSONSchemaSuiteFaults: every invalid required case of the suite gets the
// fault recorded in testsuites/json-schema-faults.json, and no other case gets
// one.
func TestJSONSchemaSuiteFaults(t *testing.T) {
	raw, err := os.ReadFile("../../../testsuites/json-schema-faults.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []suiteFault
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	wanted := map[string]suiteFault{}
	for _, f := range want {
		wanted[f.File+"\x00"+f.Case+"\x00"+f.Test] = f
	}
	remotes := suiteRemotes(t)
	files, _ := filepath.Glob(filepath.Join(suiteDir, "tests", "draft2020-12", "*.json"))
	n := 0
	for _, path := range files {
		rel, _ := filepath.Rel(suiteDir, path)
		rel = filepath.ToSlash(rel)
		for gi, g := range readGroups(t, path) {
			s, err := CompileJSON(g.Schema, Options{Remotes: remotes, BaseURI: suiteBase(gi)})
			if err != nil {
				t.Fatalf("%s / %s: %v", rel, g.Description, err)
			}
			for _, tc := range g.Tests {
				key := rel + "\x00" + g.Description + "\x00" + tc.Description
				w, has := wanted[key]
				f, failed := s.Check(mustDecode(t, tc.Data))
				switch {
				case failed != has:
					t.Errorf("%s / %s / %s: fault %v (%+v), the corpus has one: %v", rel, g.Description, tc.Description, failed, f, has)
				case has:
					n++
					if got := (suiteFault{w.File, w.Case, w.Test, f.Pointer(), f.Keyword, f.Reason}); got != w {
						t.Errorf("%s / %s / %s:\n got  %q %q %q\n want %q %q %q", rel, g.Description, tc.Description, got.Pointer, got.Keyword, got.Reason, w.Pointer, w.Keyword, w.Reason)
					}
				}
			}
		}
	}
	if n != len(want) || n < 500 {
		t.Errorf("%d of the corpus's %d faults checked", n, len(want))
	}
	t.Logf("%d suite faults match json-schema-faults.json", n)
}

// FaultVector is one entry of schema/vectors/faults/*.json (the format is in
// docs/conformance.md#validation-faults).
type faultVector struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Instance    json.RawMessage `json:"instance"`
	Pointer     string          `json:"pointer"`
	Keyword     string          `json:"keyword"`
	Reason      string          `json:"reason"`
	Message     string          `json:"message"`
}

// TestFaultVectors: every vector's instance, judged against its schema with
// the octet integer rule (as the SDK compiles tool schemas), gives exactly the
// expected pointer, keyword and reason.
func TestFaultVectors(t *testing.T) {
	files, _ := filepath.Glob("../../../schema/vectors/faults/*.json")
	if len(files) < 30 {
		t.Fatalf("only %d fault vector files", len(files))
	}
	n := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var vs []faultVector
		if err := json.Unmarshal(raw, &vs); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, v := range vs {
			n++
			name := filepath.Base(file) + ": " + v.Description
			s, err := CompileJSON(v.Schema, Options{})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			f, failed := s.Check(mustDecode(t, v.Instance))
			if !failed || f.Pointer() != v.Pointer || f.Keyword != v.Keyword || f.Reason != v.Reason {
				t.Errorf("%s:\n got  %v %q %q %q\n want %q %q %q", name, failed, f.Pointer(), f.Keyword, f.Reason, v.Pointer, v.Keyword, v.Reason)
			}
		}
	}
	t.Logf("%d fault vectors checked", n)
}
