package octet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/invopop/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// compiledSchema is a JSON Schema ready to validate instances. schema returns
// the compiled form: at once for a schema compiled when it was defined, on the
// first call (once) for a deferred one.
type compiledSchema struct {
	doc    map[string]any
	schema func() (*validator.Schema, error)
	// offsets is itemOffsets of the compiled schema, built on the first fault.
	offsets     map[string]int
	offsetsOnce sync.Once
}

var schemaSeq atomic.Int64

// compileSchema compiles a schema document (draft 2020-12 unless it says
// otherwise) now, so an invalid one is reported where it is defined.
func compileSchema(doc map[string]any, what string) (*compiledSchema, error) {
	s := deferSchema(doc, what)
	if _, err := s.schema(); err != nil {
		return nil, err
	}
	return s, nil
}

// deferSchema is compileSchema with the compilation left to the first
// validation. Compiling is most of what defining a tool costs (about 130 µs a
// tool here, most of it checking the schema against the 2020-12 meta-schema),
// and every tool is defined before the extension can answer initialize, so a
// schema the SDK derived itself is compiled only when its tool is first called,
// from the document initialize announced.
func deferSchema(doc map[string]any, what string) *compiledSchema {
	return &compiledSchema{doc: doc, schema: sync.OnceValues(func() (*validator.Schema, error) {
		raw, err := json.Marshal(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", what, err)
		}
		return compileRaw(raw, what)
	})}
}

func compileRaw(raw []byte, what string) (*validator.Schema, error) {
	inst, err := validator.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	c := validator.NewCompiler()
	c.UseRegexpEngine(portableRegexp)
	c.AssertVocabs()
	c.RegisterVocabulary(octetIntegers)
	url := fmt.Sprintf("mem:///schema/%d.json", schemaSeq.Add(1))
	if err := c.AddResource(url, inst); err != nil {
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s is not a valid JSON Schema: %v", what, err)
	}
	return s, nil
}

// printer words validation failures; only a failing call needs it, so it is
// built then rather than at every start.
var printer = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

// schemaError is the fault a validation reports (the contract's minimum, see
// faults.go): where, which keyword, and why.
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
	inst, err := validator.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return &schemaError{fault{reason: "not valid JSON: " + err.Error()}}
	}
	return s.validateDoc(inst)
}

// validateDoc checks an already parsed instance: the validator reads the same
// representation strictjson.Parse produces (maps, slices, json.Number, string,
// bool, nil), so a tool call's arguments are checked on the tree its params were
// parsed into once, never parsed again. Of all the faults, the one reported is
// the contract's minimum (docs/conformance.md#validation-faults), the same one
// the Python and TypeScript SDKs report.
func (s *compiledSchema) validateDoc(inst any) error {
	sch, err := s.schema()
	if err != nil {
		return err // not a *schemaError: the schema is broken, not the instance
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil
	}
	ve, ok := err.(*validator.ValidationError)
	if !ok {
		return &schemaError{fault{reason: err.Error()}}
	}
	s.offsetsOnce.Do(func() { s.offsets = itemOffsets(sch) })
	return &schemaError{reportedFault(ve, s.offsets, inst)}
}

// reflectParameters derives a tool's parameters schema from its argument type: a
// struct's exported fields by their json names, required unless omitempty, no
// additional properties.
func reflectParameters[Args any]() (map[string]any, error) { return reflectObject[Args]("arguments") }

// reflectObject derives the schema of a struct type used as a tool's role ("arguments"
// or "result"): both must be JSON objects on the wire.
func reflectObject[T any](role string) (map[string]any, error) {
	r := &jsonschema.Reflector{DoNotReference: true, Anonymous: true}
	s := r.Reflect(new(T))
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	delete(doc, "$schema")
	delete(doc, "$id")
	if doc["type"] != "object" {
		return nil, fmt.Errorf("tool %s must be a struct (a JSON object), got a schema of type %v", role, doc["type"])
	}
	if _, ok := doc["properties"]; !ok {
		doc["properties"] = map[string]any{}
	}
	boundIntegers(reflect.TypeFor[T](), doc)
	return doc, nil
}
