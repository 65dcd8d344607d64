package octet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/octet-kit/octet/sdk-go/internal/jsonschema"
	"github.com/octet-kit/octet/sdk-go/internal/reflectschema"
)

// compiledSchema is a JSON Schema ready to validate instances. schema returns
// the compiled form: at once for a schema compiled when it was defined, on the
// first call (once) for a deferred one.
type compiledSchema struct {
	doc    map[string]any
	schema func() (*jsonschema.Schema, error)
}

// compileSchema compiles a schema document (draft 2020-12) now, so an invalid
// one is reported where it is defined.
func compileSchema(doc map[string]any, what string) (*compiledSchema, error) {
	s := deferSchema(doc, what)
	if _, err := s.schema(); err != nil {
		return nil, err
	}
	return s, nil
}

// deferSchema is compileSchema with the compilation left to the first
// validation. Every tool is defined before the extension can answer
// initialize, so a schema the SDK derived itself is compiled only when its tool
// is first called, from the document initialize announced.
func deferSchema(doc map[string]any, what string) *compiledSchema {
	return &compiledSchema{doc: doc, schema: sync.OnceValues(func() (*jsonschema.Schema, error) {
		raw, err := marshalTree(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", what, err)
		}
		return compileRaw(raw, what)
	})}
}

// compileRaw compiles a schema's JSON text (the document round-trips through
// JSON so numbers and values written in Go, 1 or []string, read as JSON reads
// them) as standard draft 2020-12, as the Python and TypeScript SDKs do: an
// author's schema is not the octet wire, so an integral number written 7.0 or
// 7e0 is an integer there (the wire rule rpc.strict_json keeps for the
// protocol's own fields does not apply to tool parameters or results). A
// refusal is worded as theirs: what, then the bad keyword's pointer and why
// (`tool "area": parameters schema /properties/x/pattern: invalid regular
// expression ...`).
func compileRaw(raw []byte, what string) (*jsonschema.Schema, error) {
	s, err := jsonschema.CompileJSON(raw, jsonschema.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s %v", what, err)
	}
	return s, nil
}

// fault is the reported fault of a validation (the contract's minimum,
// docs/conformance.md#validation-faults): the instance pointer's tokens, the
// keyword ("false" for a false schema) and the reason.
type fault struct {
	tokens  []string
	keyword string
	reason  string
}

// pointer is the fault's RFC 6901 JSON pointer ("" for the instance itself).
func (f fault) pointer() string { return jsonschema.Pointer(f.tokens) }

// schemaError is the fault a validation reports: where, which keyword, and why.
type schemaError struct {
	fault
}

func (e *schemaError) Error() string { return rootOr(e.pointer()) + ": " + e.reason }

// rootOr names the instance itself "(root)" in messages.
func rootOr(pointer string) string {
	if pointer == "" {
		return "(root)"
	}
	return pointer
}

// validate checks raw JSON against the schema, returning the reported fault.
func (s *compiledSchema) validate(raw []byte) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var inst any
	if err := d.Decode(&inst); err != nil {
		return &schemaError{fault{reason: "not valid JSON: " + err.Error()}}
	}
	return s.validateDoc(inst)
}

// validateDoc checks an already parsed instance: the validator reads the same
// representation strictjson.Parse produces (maps, slices, json.Number, string,
// bool, nil), so a tool call's arguments are checked on the tree its params were
// parsed into once, never parsed again. A valid instance costs one boolean walk
// and no allocation; of the faults of an invalid one, the one reported is the
// contract's minimum, the same one the Python and TypeScript SDKs report.
func (s *compiledSchema) validateDoc(inst any) error {
	sch, err := s.schema()
	if err != nil {
		return err // not a *schemaError: the schema is broken, not the instance
	}
	f, failed := sch.Check(inst)
	if !failed {
		return nil
	}
	return &schemaError{fault{tokens: f.Tokens, keyword: f.Keyword, reason: f.Reason}}
}

// reflectParameters derives a tool's parameters schema from its argument type: a
// struct's exported fields by their json names, required unless omitempty, no
// additional properties.
func reflectParameters[Args any]() (map[string]any, error) { return reflectObject[Args]("arguments") }

// reflectObject derives the schema of a struct type used as a tool's role ("arguments"
// or "result"): both must be JSON objects on the wire. The derivation is the SDK's
// own (internal/reflectschema, the rules of docs/go.md), so an extension binary
// links no schema library and no net package.
func reflectObject[T any](role string) (map[string]any, error) {
	t := reflect.TypeFor[T]()
	doc, err := reflectschema.Derive(t)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %v", role, err)
	}
	if doc["type"] != "object" {
		return nil, fmt.Errorf("tool %s must be a struct (a JSON object), got a schema of type %v", role, doc["type"])
	}
	if _, ok := doc["properties"]; !ok {
		doc["properties"] = map[string]any{}
	}
	boundIntegers(t, doc)
	return doc, nil
}
