package octet

import (
	"encoding/json"
	"testing"
)

type boundedArgs struct {
	Red    uint8   `json:"red"`
	Delta  int16   `json:"delta"`
	Count  uint    `json:"count"`
	Plain  int     `json:"plain"`
	Level  uint8   `json:"level" jsonschema:"minimum=1,maximum=9"`
	Frames []int32 `json:"frames"`
	Inner  struct {
		Alpha uint16 `json:"alpha"`
	} `json:"inner"`
}

// A sized or unsigned integer field gets its type's range in the derived schema (unless a
// tag set the bound), so the validator refuses what the field cannot hold.
func TestDerivedSchemaBoundsSizedIntegers(t *testing.T) {
	doc, err := reflectParameters[boundedArgs]()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(doc["properties"])
	var props map[string]struct {
		Minimum, Maximum *float64
		Items            *struct{ Minimum, Maximum *float64 }
		Properties       map[string]struct{ Minimum, Maximum *float64 }
	}
	if err := json.Unmarshal(raw, &props); err != nil {
		t.Fatal(err)
	}
	check := func(name string, min, max *float64, wantMin, wantMax any) {
		t.Helper()
		got := func(p *float64) any {
			if p == nil {
				return nil
			}
			return *p
		}
		if got(min) != wantMin || got(max) != wantMax {
			t.Errorf("%s: minimum %v maximum %v, want %v %v", name, got(min), got(max), wantMin, wantMax)
		}
	}
	check("red", props["red"].Minimum, props["red"].Maximum, 0.0, 255.0)
	check("delta", props["delta"].Minimum, props["delta"].Maximum, -32768.0, 32767.0)
	check("count", props["count"].Minimum, props["count"].Maximum, 0.0, nil)
	check("plain", props["plain"].Minimum, props["plain"].Maximum, nil, nil)
	check("level", props["level"].Minimum, props["level"].Maximum, 1.0, 9.0)
	check("frames items", props["frames"].Items.Minimum, props["frames"].Items.Maximum, -2147483648.0, 2147483647.0)
	check("inner.alpha", props["inner"].Properties["alpha"].Minimum, props["inner"].Properties["alpha"].Maximum, 0.0, 65535.0)
	if _, err := compileSchema(doc, "arguments"); err != nil {
		t.Fatalf("the bounded schema must compile: %v", err)
	}
}
