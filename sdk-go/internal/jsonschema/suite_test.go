package jsonschema

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The official JSON Schema Test Suite (testsuites/README.md), draft 2020-12,
// through this validator: every required case must get the suite's verdict
// (the shared skip file may exempt a case, and a skipped case that passes
// fails the test, so the list only shrinks); the optional format cases run
// with format assertion on as an advisory count. The same case list as
// sdk-python's test_schema_suite.py and sdk-typescript's jsonschema-suite.test.ts.

const suiteDir = "../../../testsuites/json-schema-test-suite"

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

type suiteSkip struct {
	File      string   `json:"file"`
	Case      string   `json:"case"`
	Test      string   `json:"test"`
	Languages []string `json:"languages"`
	Reason    string   `json:"reason"`
}

func loadSuiteSkips(t *testing.T, lang string) map[string]suiteSkip {
	raw, err := os.ReadFile("../../../testsuites/json-schema-skips.json")
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
		var doc any
		if err := decode(raw, &doc); err != nil {
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

func readGroups(t testing.TB, path string) []suiteGroup {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var groups []suiteGroup
	if err := json.Unmarshal(raw, &groups); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return groups
}

func mustDecode(t testing.TB, raw []byte) any {
	var v any
	if err := decode(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// suiteBase is a group's retrieval URI, as the Python suite test gives it.
func suiteBase(index int) string { return "http://localhost:1234/suite/" + itoa(index) + ".json" }

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// runSuiteFile judges every case of one file; it returns passed and total.
func runSuiteFile(t *testing.T, rel string, remotes map[string]any, assertFormat bool, skips map[string]suiteSkip) (int, int) {
	passed, total := 0, 0
	for gi, g := range readGroups(t, filepath.Join(suiteDir, rel)) {
		s, err := CompileJSON(g.Schema, Options{Remotes: remotes, AssertFormat: assertFormat, BaseURI: suiteBase(gi)})
		for _, tc := range g.Tests {
			total++
			ok := false
			if err == nil {
				inst := mustDecode(t, tc.Data)
				valid := s.Valid(inst)
				_, failed := s.Check(inst)
				// The collecting walk must agree with the boolean one.
				ok = valid == tc.Valid && failed == !valid
			}
			key := rel + "\x00" + g.Description + "\x00" + tc.Description
			if sk, skipped := skips[key]; skipped {
				if ok {
					t.Errorf("%s / %s / %s passes but is in json-schema-skips.json (%s): remove the entry", rel, g.Description, tc.Description, sk.Reason)
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

// TestJSONSchemaSuite runs every required draft 2020-12 case (not optional/).
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
	if passed+len(skips) != total || total < 1000 {
		t.Errorf("%d passed + %d skipped != %d cases", passed, len(skips), total)
	}
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

// TestJSONSchemaSuiteBignum runs optional/bignum.json, which must pass: integers beyond
// 2^53 are judged exactly (bignum.go), as in Python and TypeScript.
func TestJSONSchemaSuiteBignum(t *testing.T) {
	passed, total := runSuiteFile(t, "tests/draft2020-12/optional/bignum.json", suiteRemotes(t), false, nil)
	t.Logf("JSON Schema Test Suite draft 2020-12, optional/bignum: Go passed %d of %d cases", passed, total)
	if total < 9 || passed != total {
		t.Errorf("passed %d of %d", passed, total)
	}
}
