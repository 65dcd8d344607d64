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
	Cancellable  []string          `json:"cancellable,omitempty"`
	Progress     []string          `json:"progress,omitempty"`
	Errors       []int64           `json:"errors,omitempty"`
	Params       map[string]string `json:"params"`
	Result       map[string]string `json:"result,omitempty"`
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
			Contribution: mj.Contribution, Cancellable: mj.Cancellable, Progress: mj.Progress, Errors: mj.Errors, Description: mj.Description}
		ro := rawMethods[i].(*ordered.Object)
		if m.Params, err = l.versioned(at+".params", mj.Params, ro.Vals["params"], mj.Versions); err != nil {
			return err
		}
		if mj.Kind == "request" {
			if m.Result, err = l.versioned(at+".result", mj.Result, ro.Vals["result"], mj.Versions); err != nil {
				return err
			}
		} else if len(mj.Result) > 0 {
			return fmt.Errorf("%s.result: a notification has no result", at)
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
