package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/message"
)

// The octet vocabulary adds the two wire rules plain JSON Schema cannot state, so the generic
// validator stays the oracle for every language:
//
//   - x-minBytes / x-maxBytes: bounds on a string's UTF-8 length (maxLength counts code points);
//   - every "number" fits a 64-bit float (1e400 would be Infinity in JavaScript and Python);
//   - every "integer" is written without fraction or exponent (`1.0` and `1e2` are not integers
//     on our wire, although draft 2020-12 would accept them) and lies within ±(2^53−1), so
//     JavaScript reads it exactly.
const vocabURL = "https://octet-kit.dev/schema/vocab/octet"

// MaxSafeInteger is 2^53−1, the largest integer every language decodes exactly.
const MaxSafeInteger = 1<<53 - 1

// Vocabulary returns the octet vocabulary for a jsonschema.Compiler.
func Vocabulary() *jsonschema.Vocabulary {
	return &jsonschema.Vocabulary{URL: vocabURL, Compile: compileVocab}
}

type octetExt struct {
	minBytes, maxBytes int // -1 when absent
	integer            bool
	number             bool // refuse numbers beyond float64's range (every decoder must read them)
}

func compileVocab(_ *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
	ext := &octetExt{minBytes: -1, maxBytes: -1}
	used := false
	for kw, dst := range map[string]*int{"x-minBytes": &ext.minBytes, "x-maxBytes": &ext.maxBytes} {
		v, ok := obj[kw]
		if !ok {
			continue
		}
		n, err := intOf(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s must be a non-negative integer, got %v", kw, v)
		}
		*dst, used = n, true
	}
	switch t := obj["type"].(type) {
	case string:
		ext.integer = t == "integer"
		ext.number = t == "number"
	case []any:
		for _, e := range t {
			ext.integer = ext.integer || e == "integer"
			ext.number = ext.number || e == "number"
		}
	}
	if !used && !ext.integer && !ext.number {
		return nil, nil
	}
	return ext, nil
}

func intOf(v any) (int, error) {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		return int(i), err
	case float64:
		if n != math.Trunc(n) {
			return 0, fmt.Errorf("not an integer")
		}
		return int(n), nil
	case int:
		return n, nil
	}
	return 0, fmt.Errorf("not a number")
}

func (e *octetExt) Validate(ctx *jsonschema.ValidatorContext, v any) {
	switch x := v.(type) {
	case string:
		n := len(x)
		if e.minBytes >= 0 && n < e.minBytes {
			ctx.AddError(&bytesError{kw: "x-minBytes", got: n, want: e.minBytes})
		}
		if e.maxBytes >= 0 && n > e.maxBytes {
			ctx.AddError(&bytesError{kw: "x-maxBytes", got: n, want: e.maxBytes})
		}
		if !utf8.ValidString(x) {
			ctx.AddError(&intError{reason: "string is not valid UTF-8"})
		}
	case json.Number:
		if e.number {
			if _, err := x.Float64(); err != nil {
				ctx.AddError(&intError{reason: fmt.Sprintf("%s is beyond the range of a 64-bit float", x)})
			}
		}
		if !e.integer {
			return
		}
		s := string(x)
		if strings.ContainsAny(s, ".eE") {
			// Only refuse when the schema would otherwise take it as an integer: a
			// non-integral value already fails "type".
			ctx.AddError(&intError{reason: fmt.Sprintf("%s is written with a fraction or exponent; integers must be written as integers", s)})
			return
		}
		if i, err := x.Int64(); err != nil || i > MaxSafeInteger || i < -MaxSafeInteger {
			ctx.AddError(&intError{reason: fmt.Sprintf("%s is outside ±(2^53−1)", s)})
		}
	}
}

type bytesError struct {
	kw        string
	got, want int
}

func (e *bytesError) KeywordPath() []string { return []string{e.kw} }
func (e *bytesError) LocalizedString(p *message.Printer) string {
	if e.kw == "x-minBytes" {
		return p.Sprintf("string is %d UTF-8 bytes, want at least %d", e.got, e.want)
	}
	return p.Sprintf("string is %d UTF-8 bytes, want at most %d", e.got, e.want)
}

type intError struct{ reason string }

func (e *intError) KeywordPath() []string                     { return []string{"type"} }
func (e *intError) LocalizedString(p *message.Printer) string { return p.Sprintf("%s", e.reason) }
