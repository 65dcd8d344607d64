package manifest

import (
	"encoding/json"
	"slices"

	"github.com/octet-kit/octet/host/internal/schemacache"
)

// RuleSettings is a [settings] table that is not a usable settings schema.
const RuleSettings = "settings"

// settings checks the declared settings schema: a JSON Schema (2020-12) the host's
// validator compiles, whose root describes an object (settings are key = value tables), on
// an API that has the configure exchange. A schema that does not compile would otherwise
// surface only when an operator sets a value.
func (v *validator) settings(doc map[string]any) {
	t, ok := v.table(doc, "settings", "settings", false)
	if !ok {
		return
	}
	if v.api == "0.1" {
		v.add("settings", RuleAPI01, "settings need API 0.2 or later (API 0.1 has no configure)")
		return
	}
	if typ, _ := t["type"].(string); typ != "object" {
		v.add("settings.type", RuleSettings, "the settings schema's root must be type = \"object\"")
		return
	}
	raw, err := json.Marshal(t)
	if err != nil {
		v.add("settings", RuleSettings, "not representable as JSON: %v", err)
		return
	}
	if _, err := schemacache.Compile(raw); err != nil {
		v.add("settings", RuleSettings, "not a valid JSON Schema (2020-12): %v", err)
		return
	}
	// A secret is named in settings, never given: the setting holds a name (whether the
	// name, or a default, is one of capabilities.secrets is judged with the values,
	// host.CheckSettings).
	props, _ := t["properties"].(map[string]any)
	for _, k := range sortedKeys(props) {
		p, _ := props[k].(map[string]any)
		if f, _ := p["format"].(string); f != "secret-name" {
			continue
		}
		if typ, _ := p["type"].(string); typ != "string" {
			v.add("settings.properties."+k, RuleSettings, "a secret-name setting must be type = \"string\"")
		}
	}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
