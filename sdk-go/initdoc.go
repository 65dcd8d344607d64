package octet

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// What initialize keeps of its params, read from the strict tree they were parsed into
// and checked on (schema-valid, so every member has its schema type), not decoded again
// by encoding/json: its first use of InitializeInfo's and the manifest's type trees
// (field tables and encoders for every nested type) was a fifth of the conformance
// fixture's start allocations (issue 17). Each reader writes what json.Unmarshal writes
// for the same members — absent or null leave the zero value, a present array is a
// non-nil slice — and TestInitializeFromDocEqualsUnmarshal holds them to it for every
// field of these types, so a field the schema adds fails there until it is read here.

// headFromDoc reads params.api_version and params.manifest.api_version from the strict
// tree as json.Unmarshal reads them into string fields, when it can tell that decoding
// would succeed with the same strings: both are strings (the manifest's may be absent),
// the manifest is an object or absent, and no other key of either object could match
// "api_version" or "manifest" as encoding/json matches keys (case-insensitively, with
// Unicode folding). Otherwise ok is false and the caller decodes with encoding/json,
// whose error (or empty version) is the refusal.
func headFromDoc(doc any) (api, manifestAPI string, ok bool) {
	top, isObj := doc.(map[string]any)
	if !isObj || !onlyExactKey(top, "api_version") || !onlyExactKey(top, "manifest") {
		return "", "", false
	}
	if api, ok = top["api_version"].(string); !ok || api == "" {
		return "", "", false
	}
	m, present := top["manifest"]
	if !present {
		return api, "", true
	}
	mo, isObj := m.(map[string]any)
	if !isObj || !onlyExactKey(mo, "api_version") {
		return "", "", false
	}
	v, present := mo["api_version"]
	if !present {
		return api, "", true
	}
	if manifestAPI, ok = v.(string); !ok {
		return "", "", false
	}
	return api, manifestAPI, true
}

// onlyExactKey reports whether no key of m other than name itself could be matched to
// a field named name by encoding/json: keys are ASCII and none other folds to name.
func onlyExactKey(m map[string]any, name string) bool {
	for k := range m {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				return false
			}
		}
		if k != name && strings.EqualFold(k, name) {
			return false
		}
	}
	return true
}

// infoFromDoc is json.Unmarshal(params, &info) for a schema-valid params tree; the
// manifest member's bytes are found in params (manifestBytes).
func infoFromDoc(doc map[string]any, params []byte) (InitializeInfo, bool) {
	raw, ok := manifestBytes(params)
	if !ok {
		return InitializeInfo{}, false
	}
	info := InitializeInfo{
		APIVersion:   docString(doc["api_version"]),
		OctetVersion: docString(doc["octet_version"]),
		Manifest:     raw,
	}
	if m, ok := doc["extension"].(map[string]any); ok {
		info.Extension = protocol.ExtensionInfo{
			Name: protocol.ExtensionName(docString(m["name"])), Version: docString(m["version"]),
			Dir: docString(m["dir"]), ManifestPath: docString(m["manifest_path"]), Source: docString(m["source"]),
		}
	}
	if m, ok := doc["workspace"].(map[string]any); ok {
		info.Workspace = protocol.WorkspaceInfo{Root: docString(m["root"]), Trusted: m["trusted"] == true}
	}
	if m, ok := doc["session"].(map[string]any); ok {
		s := &protocol.SessionInfo{
			SessionID: docStringPtr(m["session_id"]), ReasoningEffort: docStringPtr(m["reasoning_effort"]),
			ActiveSkills: docStrings[string](m["active_skills"]),
		}
		if mm, ok := m["model"].(map[string]any); ok {
			s.Model = &protocol.ModelInfo{Provider: docString(mm["provider"]), ID: docString(mm["id"])}
		}
		info.Session = s
	}
	if m, ok := doc["protocol"].(map[string]any); ok {
		p := &protocol.ProtocolOffer{
			Version:          docString(m["version"]),
			RequiredFeatures: docStrings[string](m["required_features"]),
			OptionalFeatures: docStrings[string](m["optional_features"]),
		}
		if l, ok := m["limits"].(map[string]any); ok {
			p.Limits.MaxConcurrentRequests, _ = docInt(l["max_concurrent_requests"])
			p.Limits.MaxMessageBytes = docIntPtr(l["max_message_bytes"])
			p.Limits.MaxPendingRequests = docIntPtr(l["max_pending_requests"])
		}
		info.Protocol = p
	}
	return info, true
}

// manifestFromDoc is json.Unmarshal(manifest, &view) for a schema-valid manifest tree.
func manifestFromDoc(m map[string]any) manifestView {
	v := manifestView{Name: protocol.ExtensionName(docString(m["name"])), Version: docString(m["version"])}
	if c, ok := m["contributes"].(map[string]any); ok {
		v.Contributes = &protocol.ManifestContributions{
			Tools:         docStrings[protocol.ToolName](c["tools"]),
			Commands:      docStrings[protocol.CommandName](c["commands"]),
			Hooks:         docStrings[protocol.HookName](c["hooks"]),
			UI:            docStrings[protocol.UISurface](c["ui"]),
			Context:       docBoolPtr(c["context"]),
			ToolRenderers: docStrings[protocol.ToolName](c["tool_renderers"]),
			Notifications: docBoolPtr(c["notifications"]),
			Confirmations: docBoolPtr(c["confirmations"]),
			Presentation:  docBoolPtr(c["presentation"]),
		}
	}
	return v
}

// manifestBytes returns the bytes of the params object's "manifest" member, as
// json.RawMessage holds them. params is strictly valid JSON (an object without
// duplicate keys); a key written with escapes is not looked through (false: the
// caller decodes with encoding/json instead).
func manifestBytes(params []byte) (json.RawMessage, bool) {
	i := strictjson.SkipSpace(params, 0)
	if i >= len(params) || params[i] != '{' {
		return nil, false
	}
	for i++; ; i++ {
		i = strictjson.SkipSpace(params, i)
		if i >= len(params) || params[i] != '"' {
			return nil, false // "}" of an object without a manifest, or not a key
		}
		end := strictjson.StringEnd(params, i)
		if end < 0 {
			return nil, false
		}
		key := params[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return nil, false
		}
		i = strictjson.SkipSpace(params, end)
		if i >= len(params) || params[i] != ':' {
			return nil, false
		}
		start := strictjson.SkipSpace(params, i+1)
		stop := strictjson.ValueEnd(params, start)
		if stop < 0 {
			return nil, false
		}
		if string(key) == "manifest" {
			return bytes.Clone(params[start:stop]), true // json.RawMessage copies too: params is the reader's
		}
		i = strictjson.SkipSpace(params, stop)
		if i >= len(params) || params[i] != ',' {
			return nil, false
		}
	}
}

func docString(v any) string {
	s, _ := v.(string)
	return s
}

func docStringPtr(v any) *string {
	if s, ok := v.(string); ok {
		return &s
	}
	return nil
}

func docBoolPtr(v any) *bool {
	if b, ok := v.(bool); ok {
		return &b
	}
	return nil
}

func docInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

func docIntPtr(v any) *int64 {
	if i, ok := docInt(v); ok {
		return &i
	}
	return nil
}

// docStrings is a JSON array of strings as a slice of a string type; nil when absent
// or null, as json.Unmarshal leaves it.
func docStrings[S ~string](v any) []S {
	a, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]S, len(a))
	for i, e := range a {
		out[i] = S(docString(e))
	}
	return out
}
