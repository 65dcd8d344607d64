package services

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// decode reads raw into a fresh T through the generated protocol package: strict JSON, the
// schema type's generated validator, then encoding/json (which can no longer match a key
// case-insensitively or keep an unknown one: the validator refused them). A refusal is -32602
// naming the first offending field path (schemaRefusal).
func decode[T any, PT interface {
	*T
	protocol.Validated
}](raw json.RawMessage) (T, error) {
	return decodeWorded[T, PT](raw, nil)
}

// wording is how the host words a schema rule of one field where it always has (the
// conformance guide and tests quote these reasons): the verdict stays the generated
// validator's, only the reason is the host's. Keys are "<JSON pointer> <keyword>"; a value
// gets the value the validator reported (its "got" text).
type wording map[string]func(got string) string

// decodeWorded is decode with the host's wording for some fields' schema faults.
func decodeWorded[T any, PT interface {
	*T
	protocol.Validated
}](raw json.RawMessage, w wording) (T, error) {
	var v T
	if err := protocol.Unmarshal(raw, PT(&v)); err != nil {
		return v, schemaRefusalWorded(err, w)
	}
	return v, nil
}

// decodeBinding is decodeWorded for a service with host rules (a binding such as the KV
// namespace or the manifest's surfaces, a cross-field rule) that the host judges between the
// params' structure and their values, the order it always has: a missing, stray or mistyped
// member is reported first, then the host rules, then a value out of the schema's range. A
// fault late reports (and always parent_request_id's, which the host resolves last) waits
// for the host rules too.
func decodeBinding[T any, PT interface {
	*T
	protocol.Validated
}](raw json.RawMessage, w wording, rules func(*T) error, late func(protocol.ValidationError) bool) (T, error) {
	var v T
	err := protocol.Unmarshal(raw, PT(&v))
	if err == nil {
		return v, rules(&v)
	}
	var list protocol.ValidationErrors
	if errors.As(err, &list) && len(list) > 0 {
		var early protocol.ValidationErrors
		for _, f := range list {
			if structural(f) && !lateFault(f, late) {
				early = append(early, f)
			}
		}
		if len(early) > 0 {
			return v, schemaRefusalWorded(early, w)
		}
		// The structure is good, so encoding/json reads every member the rules look at
		// (values out of the schema's range included); the fault itself is reported below.
		_ = json.Unmarshal(raw, &v)
		if rerr := rules(&v); rerr != nil {
			return v, rerr
		}
	}
	return v, schemaRefusalWorded(err, w)
}

// structural reports a member missing, stray or of the wrong kind (not a value out of range).
func structural(f protocol.ValidationError) bool {
	return f.Keyword == "required" || f.Keyword == "additionalProperties" || f.Keyword == "type"
}

func lateFault(f protocol.ValidationError, late func(protocol.ValidationError) bool) bool {
	return strings.HasPrefix(f.Pointer, "/parent_request_id") || (late != nil && late(f))
}

// validateAs checks raw against the named schema type with its generated validator, for a
// message the host keeps in its own types (tools/register keeps each tool's schemas as the
// raw JSON the extension sent: see host.ToolDefinition).
func validateAs(typeName string, raw json.RawMessage, w wording) error {
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return invalidParams("", "%v", err)
	}
	if err := protocol.Validate(typeName, doc); err != nil {
		return schemaRefusalWorded(err, w)
	}
	return nil
}

// schemaRefusal words the generated validator's first violation as the host's -32602:
// "invalid params: <path>: <reason>". Structural faults keep the reasons the host has always
// given (a missing, unknown or null field, a value of the wrong kind); every other keyword
// carries the validator's own "want …, got …" text, the phrase the SDKs give for the same fault.
func schemaRefusal(err error) error { return schemaRefusalWorded(err, nil) }

func schemaRefusalWorded(err error, w wording) error {
	var list protocol.ValidationErrors
	if !errors.As(err, &list) || len(list) == 0 {
		return invalidParams("", "%v", err)
	}
	v := firstFault(list, w)
	path := strings.TrimPrefix(strings.TrimPrefix(v.Path, "$"), ".")
	want, got, _ := strings.Cut(strings.TrimPrefix(v.Msg, "want "), ", got ")
	if v.Keyword == "required" || v.Keyword == "additionalProperties" {
		got = quotedTail(v.Msg)
		path = joinPath(path, got)
	}
	if f := w[anyIndex(v.Pointer)+" "+v.Keyword]; f != nil {
		return invalidParams(path, "%s", f(got))
	}
	if strings.HasPrefix(v.Pointer, "/parent_request_id") {
		// The one wording of a bad parent id, whichever rule of RequestID it breaks.
		return invalidParams("parent_request_id", "must be an integer ≥ 0 or a string of 1..%d bytes", maxIDBytes)
	}
	switch v.Keyword {
	case "required":
		return invalidParams(path, "is required")
	case "additionalProperties":
		return invalidParams(path, "is not a known field")
	case "maxLength", "maxItems":
		// The host's "is N characters; the limit is M" for an upper bound.
		limit, unit, ok := upperBound(want)
		if !ok {
			break
		}
		switch unit {
		case "characters":
			return invalidParams(path, "is %s characters; the limit is %s", got, limit)
		case "UTF-8 bytes":
			return invalidParams(path, "is %s bytes; the limit is %s", got, limit)
		case "items":
			return invalidParams(path, "has %s entries; the limit is %s", got, limit)
		}
	case "minItems":
		if rng, ok := strings.CutSuffix(want, " items"); ok && strings.Contains(rng, "..") {
			return invalidParams(path, "has %s entries; send %s", got, rng)
		}
	case "enum":
		if list, ok := strings.CutPrefix(want, "one of "); ok {
			return invalidParams(path, "%s is not one of %s", got, list)
		}
	case "pattern":
		if re, ok := strings.CutPrefix(want, "a match of "); ok {
			return invalidParams(path, "%s must match %s", got, re)
		}
	case "type":
		if got == "" {
			break
		}
		switch {
		case got == "null":
			return invalidParams(path, "must not be null")
		case want == "object":
			return invalidParams(path, "must be an object")
		case want == "array":
			return invalidParams(path, "must be an array")
		}
		return invalidParams(path, "must be %s, not %s", kindPhrase(want), jsonKind(got))
	}
	return invalidParams(path, "%s", v.Msg)
}

// firstFault is the violation the host reports: one it words itself, else a member's own
// fault (missing, null, of the wrong kind, out of range) before a stray member of the same
// document, and a bad parent_request_id last, the order the host has always judged in (a
// wrongly cased "Namespace" is reported as namespace missing).
func firstFault(list protocol.ValidationErrors, w wording) protocol.ValidationError {
	for _, v := range list {
		if w[anyIndex(v.Pointer)+" "+v.Keyword] != nil && !lateFault(v, nil) {
			return v
		}
	}
	for _, v := range list {
		if v.Keyword != "additionalProperties" && !lateFault(v, nil) {
			return v
		}
	}
	for _, v := range list {
		if !lateFault(v, nil) {
			return v
		}
	}
	return list[0]
}

// upperBound reads the validator's "at most M unit" or "L..M unit".
func upperBound(want string) (limit, unit string, ok bool) {
	bound := ""
	bound, unit, ok = strings.Cut(want, " ")
	if bound == "at" {
		bound, unit, ok = strings.Cut(strings.TrimPrefix(unit, "most "), " ")
	} else if _, hi, ranged := strings.Cut(bound, ".."); ranged {
		bound = hi
	}
	return bound, unit, ok
}

// anyIndex replaces the array indices of a JSON pointer by "*", so a wording names a field
// of every item ("/snapshot/activities/*/reference").
func anyIndex(pointer string) string {
	parts := strings.Split(pointer, "/")
	for i, p := range parts {
		if _, err := strconv.Atoi(p); err == nil && p != "" {
			parts[i] = "*"
		}
	}
	return strings.Join(parts, "/")
}

// quotedTail is the field name the validator quotes at the end of a required or
// additionalProperties message (`missing required field "key"`).
func quotedTail(msg string) string {
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return ""
	}
	name, err := strconv.Unquote(msg[i:])
	if err != nil {
		return msg[i:]
	}
	return name
}

// jsonKind is the validator's "got" kind as encoding/json has always named it in the host's
// messages ("bool", "number").
func jsonKind(got string) string {
	switch got {
	case "boolean":
		return "bool"
	case "integer":
		return "number"
	}
	return got
}

// kindPhrase turns the validator's wanted kind into the host's "must be a string" wording.
func kindPhrase(want string) string {
	switch {
	case strings.HasPrefix(want, "an integer"), want == "integer":
		return "an integer"
	case want == "string", want == "boolean", want == "number":
		return "a " + want
	}
	return want
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	if name == "" {
		return path
	}
	return path + "." + name
}
