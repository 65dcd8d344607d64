package octet

import (
	"encoding/json"
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The octet wire rule for integers (schema/README.md): a number written with a
// fraction or an exponent (1.0, 1e0) is never an "integer", although draft
// 2020-12 counts it as one. Tool schemas are compiled with this vocabulary so a
// tool whose parameters say "integer" refuses 1.0 with the same fault as the
// Python and TypeScript SDKs: type, "want type integer, got number"
// (docs/conformance.md#validation-faults).
var octetIntegers = &validator.Vocabulary{
	URL: "https://octet-kit.dev/sdk-go/vocab/integers",
	Compile: func(_ *validator.CompilerContext, obj map[string]any) (validator.SchemaExt, error) {
		var types []string
		switch t := obj["type"].(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok {
					types = append(types, s)
				}
			}
		}
		integer, number := false, false
		for _, t := range types {
			integer = integer || t == "integer"
			number = number || t == "number"
		}
		if !integer || number {
			return nil, nil
		}
		return integerExt{want: contractTypeOrder(types)}, nil
	},
}

type integerExt struct{ want []string }

// Validate runs only once "type" has passed, so a number here with a fraction
// or exponent is integral (1.0): the fault is the one "type" would give.
func (e integerExt) Validate(ctx *validator.ValidatorContext, v any) {
	if n, ok := v.(json.Number); ok && strings.ContainsAny(string(n), ".eE") {
		ctx.AddError(&kind.Type{Got: "number", Want: e.want})
	}
}

// contractTypeOrder lists type names in the order the fault contract prints them.
func contractTypeOrder(types []string) []string {
	var out []string
	for _, name := range []string{"null", "boolean", "number", "integer", "string", "array", "object"} {
		for _, t := range types {
			if t == name {
				out = append(out, name)
				break
			}
		}
	}
	return out
}
