package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ordered"
)

// AllVersions are the API versions the registry may name; 0.3 is never one of them.
var AllVersions = []string{"0.1", "0.2", "0.4"}

type methodJSON struct {
	Name         string            `json:"name"`
	Direction    string            `json:"direction"`
	Kind         string            `json:"kind"`
	Versions     []string          `json:"versions"`
	Feature      string            `json:"feature,omitempty"`
	Contribution string            `json:"contribution,omitempty"`
	Dispatch     string            `json:"dispatch,omitempty"`
	OwnerBound   bool              `json:"owner_bound,omitempty"`
	Cancellable  []string          `json:"cancellable,omitempty"`
	Progress     []string          `json:"progress,omitempty"`
	Errors       []int64           `json:"errors,omitempty"`
	Params       map[string]string `json:"params"`
	Result       map[string]string `json:"result,omitempty"`
	SDK          *SDKOperation     `json:"sdk,omitempty"`
	Description  string            `json:"description"`
}

func (l *loader) methods(data []byte) error {
	var doc struct {
		Description string       `json:"description"`
		Methods     []methodJSON `json:"methods"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	// The version maps' key order carries no meaning; keep the file's order anyway for the docs.
	raw, err := ordered.Decode(data)
	if err != nil {
		return err
	}
	rawMethods, _ := raw.(*ordered.Object).Vals["methods"].([]any)
	known := map[int64]bool{}
	for _, e := range l.m.Errors {
		known[e.Code] = true
	}
	// A registry older than the routing metadata (the release baseline) has no dispatch role
	// at all; it is loaded for comparison only, so its routing is not checked.
	routed := false
	for _, mj := range doc.Methods {
		routed = routed || mj.Dispatch != ""
	}
	seen := map[string]bool{}
	for i, mj := range doc.Methods {
		at := fmt.Sprintf("methods[%d] (%s)", i, mj.Name)
		if mj.Name == "" || seen[mj.Name] {
			return fmt.Errorf("%s: empty or duplicate name", at)
		}
		seen[mj.Name] = true
		if mj.Kind != "request" && mj.Kind != "notification" {
			return fmt.Errorf("%s.kind: want request or notification, got %q", at, mj.Kind)
		}
		switch mj.Direction {
		case "host_to_extension", "extension_to_host", "both":
		default:
			return fmt.Errorf("%s.direction: want host_to_extension, extension_to_host or both, got %q", at, mj.Direction)
		}
		if err := checkDispatch(mj); routed && err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		if mj.Description == "" {
			return fmt.Errorf("%s.description: required", at)
		}
		for _, list := range [][]string{mj.Versions, mj.Cancellable, mj.Progress} {
			for _, v := range list {
				if !contains(AllVersions, v) {
					return fmt.Errorf("%s: unknown API version %q", at, v)
				}
			}
		}
		for _, c := range mj.Errors {
			if !known[c] {
				return fmt.Errorf("%s.errors: code %d is not in the error registry", at, c)
			}
		}
		m := Method{Name: mj.Name, Direction: mj.Direction, Kind: mj.Kind, Versions: mj.Versions, Feature: mj.Feature,
			Contribution: mj.Contribution, Cancellable: mj.Cancellable, Progress: mj.Progress, Errors: mj.Errors, Description: mj.Description,
			Dispatch: mj.Dispatch, OwnerBound: mj.OwnerBound, SDK: mj.SDK}
		ro := rawMethods[i].(*ordered.Object)
		if m.Params, err = l.versioned(at+".params", mj.Params, ro.Vals["params"], mj.Versions); err != nil {
			return err
		}
		if err := l.checkOwnerBound(m); routed && err != nil {
			return fmt.Errorf("%s.owner_bound: %w", at, err)
		}
		if mj.Kind == "request" {
			if m.Result, err = l.versioned(at+".result", mj.Result, ro.Vals["result"], mj.Versions); err != nil {
				return err
			}
		} else if len(mj.Result) > 0 {
			return fmt.Errorf("%s.result: a notification has no result", at)
		}
		if err := l.checkSDK(m); routed && err != nil {
			return fmt.Errorf("%s.sdk: %w", at, err)
		}
		l.m.Methods = append(l.m.Methods, m)
	}
	return nil
}

// versioned groups the "versions -> type" map by type, checking every version is covered once.
// Keys are a version or several joined with ",", e.g. {"0.1": "ToolResult01", "0.2,0.4": "ToolResult"}.
func (l *loader) versioned(at string, mp map[string]string, raw any, want []string) ([]VersionedType, error) {
	ro, _ := raw.(*ordered.Object)
	if ro == nil {
		return nil, fmt.Errorf("%s: required", at)
	}
	covered := map[string]bool{}
	var out []VersionedType
	for _, k := range ro.Keys {
		vs := strings.Split(k, ",")
		for _, v := range vs {
			if !contains(want, v) || covered[v] {
				return nil, fmt.Errorf("%s: version %q is not one of the method's versions or is repeated", at, v)
			}
			covered[v] = true
		}
		name := mp[k]
		if l.m.byName[name] == nil {
			return nil, fmt.Errorf("%s[%q]: unknown type %q", at, k, name)
		}
		out = append(out, VersionedType{Versions: vs, Type: name})
	}
	for _, v := range want {
		if !covered[v] {
			return nil, fmt.Errorf("%s: no type for API version %s", at, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Versions[0] < out[j].Versions[0] })
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Dispatch roles of a host-to-extension method: how an SDK's dispatch table routes it.
const (
	DispatchHandshake = "handshake" // initialize: answered before anything else is admitted
	DispatchWork      = "work"      // a contribution request, admitted through the worker pool
	DispatchEvent     = "event"     // a lifecycle notification, delivered to observers in order
	DispatchShutdown  = "shutdown"  // stops admission and drains
	DispatchCancel    = "cancel"    // $/cancelRequest: handled by the connection itself
)

// DispatchRoles lists the roles in the order the docs show them.
var DispatchRoles = []string{DispatchHandshake, DispatchWork, DispatchEvent, DispatchShutdown, DispatchCancel}

// checkDispatch says whether a method's dispatch role fits its direction and kind: every
// method an extension receives has exactly one role, a method it only sends has none, and an
// event is a notification (nobody answers an observation).
func checkDispatch(mj methodJSON) error {
	receives := mj.Direction != "extension_to_host"
	switch {
	case !receives && mj.Dispatch != "":
		return fmt.Errorf("dispatch: an extension_to_host method has no dispatch role, got %q", mj.Dispatch)
	case receives && !contains(DispatchRoles, mj.Dispatch):
		return fmt.Errorf("dispatch: want one of %s for a method the extension receives, got %q", strings.Join(DispatchRoles, ", "), mj.Dispatch)
	case mj.Dispatch == DispatchEvent && mj.Kind != "notification":
		return fmt.Errorf("dispatch: an event is a notification, got kind %q", mj.Kind)
	case mj.Dispatch == DispatchWork && mj.Kind != "request":
		return fmt.Errorf("dispatch: work is a request, got kind %q", mj.Kind)
	}
	return nil
}

// checkOwnerBound keeps owner_bound honest against the params types: a host request the host
// binds to an owner carries resource_owner in every version's params (every variant of a
// union), an extension request the host binds names its parent_request_id (required), and a
// method not marked owner-bound carries neither in that role.
func (l *loader) checkOwnerBound(m Method) error {
	field, required := "resource_owner", false
	if m.Direction == "extension_to_host" {
		field, required = "parent_request_id", true
	}
	for _, vt := range m.Params {
		has := l.everyVariantHas(vt.Type, field, required)
		switch {
		case m.OwnerBound && !has:
			return fmt.Errorf("params %s (API %s) lack %s, so the host cannot bind the call to an owner", vt.Type, strings.Join(vt.Versions, ","), field)
		case !m.OwnerBound && has && m.Direction != "both":
			return fmt.Errorf("params %s (API %s) carry %s: mark the method owner_bound", vt.Type, strings.Join(vt.Versions, ","), field)
		}
	}
	return nil
}

// everyVariantHas says whether the named object type (or every variant of its union) has the
// field, required when required is set.
func (l *loader) everyVariantHas(name, field string, required bool) bool {
	n := l.m.byName[name]
	if n == nil {
		return false
	}
	t := n.Type
	if len(t.OneOf) > 0 {
		for _, v := range t.OneOf {
			if !l.everyVariantHas(v.Ref, field, required) {
				return false
			}
		}
		return true
	}
	for _, f := range t.Fields {
		if f.Name == field {
			return f.Required || !required
		}
	}
	return false
}
