package octet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
)

// The official JSON Schema Test Suite (testsuites/README.md), draft 2020-12,
// through the validator the SDK uses: the oracle the Python and TypeScript
// validators are measured against. Every required case must pass; the shared
// skip file may exempt a case for some languages, and a skipped case that
// passes fails the test (the list only shrinks).

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

// suiteSkip is one entry of testsuites/json-schema-skips.json.
type suiteSkip struct {
	File      string   `json:"file"`
	Case      string   `json:"case"`
	Test      string   `json:"test"`
	Languages []string `json:"languages"`
	Reason    string   `json:"reason"`
}

func loadSuiteSkips(t *testing.T, lang string) map[string]suiteSkip {
	raw, err := os.ReadFile("../testsuites/json-schema-skips.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Skips []suiteSkip `json:"skips"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]suiteSkip{}
	for _, s := range doc.Skips {
		if s.File == "" || s.Case == "" || s.Test == "" || s.Reason == "" || len(s.Languages) == 0 {
			t.Fatalf("skip entry %+v: file, case, test, languages and reason are all required", s)
		}
		for _, l := range s.Languages {
			if l == lang {
				out[s.File+"\x00"+s.Case+"\x00"+s.Test] = s
			}
		}
	}
	return out
}

// suiteRemotes loads remotes/ as http://localhost:1234/... documents, from disk
// into memory: no network.
func suiteRemotes(t *testing.T) map[string]any {
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

type mapLoader map[string]any

func (m mapLoader) Load(url string) (any, error) {
	if doc, ok := m[url]; ok {
		return doc, nil
	}
	return nil, fmt.Errorf("no such remote %s (the suite is served from memory)", url)
}

// runSuiteFile judges every case of one file; it returns passed and total.
func runSuiteFile(t *testing.T, rel string, remotes map[string]any, assertFormat bool, skips map[string]suiteSkip) (int, int) {
	raw, err := os.ReadFile(filepath.Join(suiteDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	var groups []suiteGroup
	if err := json.Unmarshal(raw, &groups); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	passed, total := 0, 0
	for gi, g := range groups {
		c := validator.NewCompiler()
		c.DefaultDraft(validator.Draft2020)
		if assertFormat {
			c.AssertFormat()
		}
		c.UseLoader(mapLoader(remotes))
		c.UseRegexpEngine(portableRegexp) // as the SDK compiles
		url := fmt.Sprintf("http://localhost:1234/suite/%s/%d.json", strings.ReplaceAll(rel, "/", "_"), gi)
		doc, err := validator.UnmarshalJSON(bytes.NewReader(g.Schema))
		if err != nil {
			t.Fatal(err)
		}
		var sch *validator.Schema
		if err = c.AddResource(url, doc); err == nil {
			sch, err = c.Compile(url)
		}
		for _, tc := range g.Tests {
			total++
			ok := false
			if err == nil {
				inst, derr := validator.UnmarshalJSON(bytes.NewReader(tc.Data))
				if derr != nil {
					t.Fatal(derr)
				}
				ok = (sch.Validate(inst) == nil) == tc.Valid
			}
			key := rel + "\x00" + g.Description + "\x00" + tc.Description
			if s, skipped := skips[key]; skipped {
				if ok {
					t.Errorf("%s / %s / %s passes but is in json-schema-skips.json (%s): remove the entry", rel, g.Description, tc.Description, s.Reason)
				}
				continue
			}
			if ok {
				passed++
			} else if !assertFormat {
				t.Errorf("%s / %s / %s: want valid=%v (compile error: %v)", rel, g.Description, tc.Description, tc.Valid, err)
			}
		}
	}
	return passed, total
}

// TestJSONSchemaSuite runs every required draft 2020-12 case (not optional/);
// the optional format cases run with format assertion on as an advisory count.
func TestJSONSchemaSuite(t *testing.T) {
	remotes := suiteRemotes(t)
	skips := loadSuiteSkips(t, "go")
	files, _ := filepath.Glob(filepath.Join(suiteDir, "tests", "draft2020-12", "*.json"))
	if len(files) < 40 {
		t.Fatalf("only %d suite files found", len(files))
	}
	passed, total := 0, 0
	for _, f := range files {
		rel, _ := filepath.Rel(suiteDir, f)
		p, n := runSuiteFile(t, filepath.ToSlash(rel), remotes, false, skips)
		passed += p
		total += n
	}
	t.Logf("JSON Schema Test Suite draft 2020-12, required: Go passed %d of %d cases (%d skipped)", passed, total, len(skips))
	formats, _ := filepath.Glob(filepath.Join(suiteDir, "tests", "draft2020-12", "optional", "format", "*.json"))
	fp, fn := 0, 0
	for _, f := range formats {
		rel, _ := filepath.Rel(suiteDir, f)
		p, n := runSuiteFile(t, filepath.ToSlash(rel), remotes, true, nil)
		fp += p
		fn += n
	}
	t.Logf("advisory: optional/format with format assertion: Go passed %d of %d cases", fp, fn)
}

// suiteFault is one entry of testsuites/json-schema-faults.json: the fault the
// Go SDK reports (the fault contract) for an invalid instance of the suite.
type suiteFault struct {
	File    string `json:"file"`
	Case    string `json:"case"`
	Test    string `json:"test"`
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Reason  string `json:"reason"`
}

const suiteFaultsFile = "../testsuites/json-schema-faults.json"

// TestJSONSchemaSuiteFaults: every invalid required case of the suite gets, from
// the Go SDK, the fault recorded in testsuites/json-schema-faults.json, which the
// Python and TypeScript tests check too (the suite as a second fault corpus, with
// the oracle's answers). OCTET_UPDATE_SUITE_FAULTS=1 rewrites the file.
func TestJSONSchemaSuiteFaults(t *testing.T) {
	remotes := suiteRemotes(t)
	files, _ := filepath.Glob(filepath.Join(suiteDir, "tests", "draft2020-12", "*.json"))
	var got []suiteFault
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
		for gi, g := range groups {
			c := validator.NewCompiler()
			c.DefaultDraft(validator.Draft2020)
			c.UseLoader(mapLoader(remotes))
			c.UseRegexpEngine(portableRegexp)
			url := fmt.Sprintf("http://localhost:1234/suite/%d.json", gi)
			doc, err := validator.UnmarshalJSON(bytes.NewReader(g.Schema))
			if err != nil {
				t.Fatal(err)
			}
			if err := c.AddResource(url, doc); err != nil {
				t.Fatal(err)
			}
			sch, err := c.Compile(url)
			if err != nil {
				t.Fatal(err)
			}
			s := &compiledSchema{schema: func() (*validator.Schema, error) { return sch, nil }}
			for _, tc := range g.Tests {
				inst, err := validator.UnmarshalJSON(bytes.NewReader(tc.Data))
				if err != nil {
					t.Fatal(err)
				}
				if se, ok := s.validateDoc(inst).(*schemaError); ok {
					got = append(got, suiteFault{filepath.ToSlash(rel), g.Description, tc.Description, se.pointer(), se.keyword, se.reason})
				}
			}
		}
	}
	sort.SliceStable(got, func(i, j int) bool {
		a, b := got[i], got[j]
		return a.File+"\x00"+a.Case+"\x00"+a.Test < b.File+"\x00"+b.Case+"\x00"+b.Test
	})
	if os.Getenv("OCTET_UPDATE_SUITE_FAULTS") == "1" {
		var b bytes.Buffer
		b.WriteString("[\n")
		for i, f := range got {
			line, _ := json.Marshal(f)
			b.Write(line)
			if i < len(got)-1 {
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
	if len(got) != len(want) {
		t.Fatalf("%d faults, the file has %d (OCTET_UPDATE_SUITE_FAULTS=1 rewrites it)", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("got %+v\nwant %+v", got[i], want[i])
		}
	}
	t.Logf("%d suite faults match %s", len(got), suiteFaultsFile)
}
