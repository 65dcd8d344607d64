package jsonschema

import (
	"encoding/json"
	"os"
	"testing"
)

// TestPatternDialect: schema/vectors/patterns/dialect.json, shared with the
// Python and TypeScript SDKs: portable patterns compile and match as listed,
// the refused ones are refused (so every SDK accepts the same schemas).
func TestPatternDialect(t *testing.T) {
	raw, err := os.ReadFile("../../../schema/vectors/patterns/dialect.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Portable []struct {
			Pattern string   `json:"pattern"`
			Matches []string `json:"matches"`
			Rejects []string `json:"rejects"`
		} `json:"portable"`
		Refused []string `json:"refused"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, v := range doc.Portable {
		re, err := PortableRegexp(v.Pattern)
		if err != nil {
			t.Errorf("%q refused: %v", v.Pattern, err)
			continue
		}
		for _, s := range v.Matches {
			if !re.MatchString(s) {
				t.Errorf("%q does not match %q", v.Pattern, s)
			}
		}
		for _, s := range v.Rejects {
			if re.MatchString(s) {
				t.Errorf("%q matches %q", v.Pattern, s)
			}
		}
	}
	for _, p := range doc.Refused {
		if _, err := PortableRegexp(p); err == nil {
			t.Errorf("%q accepted", p)
		}
	}
}
