package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// schemaCheck validates the parsed manifest with the generated validator of
// schema/manifest.schema.json (sdk-go/protocol), the project's single source of truth, with
// nothing compiled at run time. The hand-written rules in validate.go run first and give
// field-precise messages; the schema then catches anything they do not know about, so a
// schema change that this file has not caught up with still refuses what it should.
func schemaCheck(file string, doc map[string]any) []Diagnostic {
	raw, err := json.Marshal(doc)
	if err != nil {
		return []Diagnostic{{File: file, Rule: RuleSchema, Message: err.Error()}}
	}
	inst, err := strictjson.Parse(raw)
	if err != nil {
		return []Diagnostic{{File: file, Rule: RuleSchema, Message: err.Error()}}
	}
	err = protocol.Validate("Manifest", inst)
	var list protocol.ValidationErrors
	if err == nil || !errors.As(err, &list) {
		if err != nil {
			return []Diagnostic{{File: file, Rule: RuleSchema, Message: err.Error()}}
		}
		return nil
	}
	out := make([]Diagnostic, 0, len(list))
	for _, v := range list {
		out = append(out, Diagnostic{File: file, Field: fieldPath(pointerTokens(v.Pointer)), Rule: RuleSchema, Message: v.Msg})
	}
	return out
}

// pointerTokens splits an RFC 6901 JSON pointer into its unescaped tokens.
func pointerTokens(pointer string) []string {
	if pointer == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts
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
