package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// initializeResultType names the schema type an initialize answer must satisfy.
func initializeResultType(api string) string {
	if api == "0.1" {
		return "InitializeResult01"
	}
	return "InitializeResult"
}

// initializeParamsType names the schema type of the host's initialize params.
func initializeParamsType(api string) string {
	if api == "0.1" {
		return "InitializeParams01"
	}
	return "InitializeParams"
}

// validateInitializeResult checks an initialize answer with the generated validator of its
// API version's schema type (schema/ is the authority on shapes; the host's own checks add
// the cross-field rules). The message names the first failing location and the value there,
// so a refusal says where the answer is wrong.
func validateInitializeResult(api string, raw []byte) error {
	return validateAs(initializeResultType(api), raw)
}

// validateAs checks raw JSON against the named schema type with its generated validator.
func validateAs(typeName string, raw []byte) error {
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return fmt.Errorf("not strict JSON: %v", err)
	}
	err = protocol.Validate(typeName, doc)
	var list protocol.ValidationErrors
	if err == nil || !errors.As(err, &list) || len(list) == 0 {
		return err
	}
	v := list[0]
	tokens := pointerTokens(v.Pointer)
	return fmt.Errorf("does not match the schema at /%s (%s): %s", strings.Join(tokens, "/"), valueAt(doc, tokens), v.Msg)
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
