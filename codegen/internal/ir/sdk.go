package ir

import (
	"fmt"
	"regexp"
	"strings"
)

// SDKOperation is where a method the extension sends lives in every SDK's API: the service
// object (ext.kv, ext.agents, ...), the operation on it, and the positional arguments in
// order. Every other param is an option (Go: an options struct, Python: keyword-only,
// TypeScript: an options object), except parent_request_id, which the SDK takes from the
// call in progress. One table fixes the shape, so the three SDKs cannot drift apart: each
// language spells the names in its own case (kv.request_input, KV.RequestInput,
// kv.requestInput) and keeps the order.
type SDKOperation struct {
	Service   string   `json:"service"`
	Operation string   `json:"operation"`
	Arguments []string `json:"arguments"`
}

var sdkName = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// contextFields are params the SDK fills from the call in progress, never arguments.
var contextFields = map[string]bool{"parent_request_id": true}

// checkSDK: every method the extension sends has its place, no other method has one, the
// names are snake_case words, the arguments are params of every version (never a context
// field, never twice), and no two methods share a service operation.
func (l *loader) checkSDK(m Method) error {
	sends := m.Direction == "extension_to_host"
	switch {
	case sends && m.SDK == nil:
		return fmt.Errorf("a method the extension sends needs its service, operation and arguments")
	case !sends && m.SDK != nil:
		return fmt.Errorf("only a method the extension sends has a place in the SDKs' services")
	case m.SDK == nil:
		return nil
	}
	s := m.SDK
	if !sdkName.MatchString(s.Service) || !sdkName.MatchString(s.Operation) {
		return fmt.Errorf("service %q and operation %q must be snake_case words", s.Service, s.Operation)
	}
	if l.sdkSeen == nil {
		l.sdkSeen = map[string]string{}
	}
	key := s.Service + "." + s.Operation
	if other, dup := l.sdkSeen[key]; dup {
		return fmt.Errorf("%s is already the place of %s", key, other)
	}
	l.sdkSeen[key] = m.Name
	seen := map[string]bool{}
	for _, a := range s.Arguments {
		if contextFields[a] {
			return fmt.Errorf("argument %q is filled from the call in progress, not passed", a)
		}
		if seen[a] {
			return fmt.Errorf("argument %q named twice", a)
		}
		seen[a] = true
		for _, vt := range m.Params {
			if !l.everyVariantHas(vt.Type, a, false) {
				return fmt.Errorf("argument %q is not a field of %s (API %s)", a, vt.Type, strings.Join(vt.Versions, ","))
			}
		}
	}
	return nil
}
