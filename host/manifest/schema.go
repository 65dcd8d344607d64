package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/octet-kit/octet/schema"
)

// schemaCheck validates the parsed manifest against schema/manifest.schema.json, the
// project's single source of truth. The hand-written rules in validate.go run first and give
// field-precise messages; the schema then catches anything they do not know about, so a
// schema change that this file has not caught up with still refuses what it should.
func schemaCheck(file string, doc map[string]any) []Diagnostic {
	sch, err := schema.Manifest()
	if err != nil {
		return []Diagnostic{{File: file, Rule: RuleSchema, Message: "manifest schema does not compile: " + err.Error()}}
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return []Diagnostic{{File: file, Rule: RuleSchema, Message: err.Error()}}
	}
	inst, err := schema.Decode(raw)
	if err != nil {
		return []Diagnostic{{File: file, Rule: RuleSchema, Message: err.Error()}}
	}
	err = sch.Validate(inst)
	var ve *jsonschema.ValidationError
	if err == nil || !errors.As(err, &ve) {
		if err != nil {
			return []Diagnostic{{File: file, Rule: RuleSchema, Message: err.Error()}}
		}
		return nil
	}
	var out []Diagnostic
	collectLeaves(ve, func(e *jsonschema.ValidationError) {
		out = append(out, Diagnostic{File: file, Field: fieldPath(e.InstanceLocation), Rule: RuleSchema, Message: e.ErrorKind.LocalizedString(printer)})
	})
	return out
}

var printer = message.NewPrinter(language.English)

func collectLeaves(e *jsonschema.ValidationError, f func(*jsonschema.ValidationError)) {
	if len(e.Causes) == 0 {
		f(e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, f)
	}
}

// fieldPath turns a JSON pointer's tokens into the dotted form used by diagnostics.
func fieldPath(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		if t != "" && strings.Trim(t, "0123456789") == "" {
			fmt.Fprintf(&b, "[%s]", t)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

// mergeSchema adds schema findings only where the hand-written rules reported nothing at,
// above or below the same field, so one mistake is not reported twice in different words.
func mergeSchema(diags, fromSchema []Diagnostic) []Diagnostic {
	related := func(a, b string) bool {
		return a == b || a == "" || b == "" || strings.HasPrefix(a, b+".") || strings.HasPrefix(a, b+"[") ||
			strings.HasPrefix(b, a+".") || strings.HasPrefix(b, a+"[")
	}
	out := diags
	for _, s := range fromSchema {
		dup := false
		for _, d := range diags {
			if related(d.Field, s.Field) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}
