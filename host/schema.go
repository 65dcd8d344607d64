package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/octet-kit/octet/schema"
)

// initializeResultDef names the schema definition an initialize answer must satisfy.
func initializeResultDef(api string) string {
	if api == "0.1" {
		return "initialize.schema.json#/$defs/InitializeResult01"
	}
	return "initialize.schema.json#/$defs/InitializeResult"
}

// initializeParamsDef names the schema definition of the host's initialize params.
func initializeParamsDef(api string) string {
	if api == "0.1" {
		return "initialize.schema.json#/$defs/InitializeParams01"
	}
	return "initialize.schema.json#/$defs/InitializeParams"
}

// validateSchema checks raw JSON against a schema definition (schema/ is the authority on
// shapes; the host's own checks add the cross-field rules). The message names the first
// failing location so a refusal says where the answer is wrong.
func validateSchema(loc string, raw []byte) error {
	doc, err := schema.Decode(raw)
	if err != nil {
		return fmt.Errorf("not strict JSON: %v", err)
	}
	err = schema.Validate(loc, doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		leaf := ve
		for len(leaf.Causes) > 0 {
			leaf = leaf.Causes[0]
		}
		return fmt.Errorf("does not match the schema at /%s (%s): %s", joinPointer(leaf.InstanceLocation), valueAt(doc, leaf.InstanceLocation), leaf.ErrorKind.LocalizedString(printer))
	}
	return err
}

func joinPointer(tokens []string) string {
	out := ""
	for i, t := range tokens {
		if i > 0 {
			out += "/"
		}
		out += t
	}
	return out
}

var printer = message.NewPrinter(language.English)

// valueAt quotes the (shortened) JSON value at a pointer, so a refusal names what was sent.
func valueAt(doc any, tokens []string) string {
	for _, t := range tokens {
		switch v := doc.(type) {
		case map[string]any:
			doc = v[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(v) {
				return "?"
			}
			doc = v[i]
		default:
			return "?"
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return "?"
	}
	if len(b) > 64 {
		return string(b[:64]) + "…"
	}
	return string(b)
}
