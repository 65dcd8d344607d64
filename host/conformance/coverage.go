package conformance

import (
	"encoding/json"
	"io/fs"
	"slices"
	"sort"

	"github.com/octet-kit/octet/schema"
)

// wireMethods is the method list of docs/design/wire.md §5 and §6, used while
// schema/methods.json does not list methods yet.
var wireMethods = []string{
	"initialize", "tool/call", "command/execute", "hook/run", "context/collect", "status/collect",
	"tool/render", "shutdown", "$/cancelRequest",
	"session/started", "session/settled", "turn/started", "turn/settled", "tool/started", "tool/settled",
	"notification", "confirmation/request", "input/request", "context/contribution", "status/contribution",
	"presentation/update", "$/progress", "artifact/publish", "policy/evaluate", "secret/get",
	"tools/register", "tools/unregister", "agent/spawn", "agent/message", "agent/follow_up",
	"agent/models", "agent/list", "agent/wait", "agent/interrupt", "kv.get", "kv.list", "kv.commit",
}

// Requirements returns the wire methods every SDK must implement: from the schema's
// method metadata when it lists methods, else from the wire design note.
func Requirements() []string {
	if names := schemaMethods(); len(names) > 0 {
		return names
	}
	return slices.Clone(wireMethods)
}

// schemaMethods reads method names from schema/methods.json, accepting either
// {"methods": [{"name": …}, …]}, {"methods": {name: …}} or {name: {…}, …}.
func schemaMethods() []string {
	b, err := fs.ReadFile(schema.FS(), "methods.json")
	if err != nil {
		return nil
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(b, &doc) != nil {
		return nil
	}
	var names []string
	if raw, ok := doc["methods"]; ok {
		var list []struct {
			Name string `json:"name"`
		}
		var byName map[string]json.RawMessage
		switch {
		case json.Unmarshal(raw, &list) == nil:
			for _, m := range list {
				if m.Name != "" {
					names = append(names, m.Name)
				}
			}
		case json.Unmarshal(raw, &byName) == nil:
			for n := range byName {
				names = append(names, n)
			}
		}
	} else {
		for n := range doc {
			if slices.Contains(wireMethods, n) {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			for n := range doc {
				if !slices.Contains(names, n) && n != "$schema" && n != "$id" && n != "description" {
					names = append(names, n)
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// Gaps returns the required methods no registered check exercises.
func Gaps() []string {
	covered := map[string]bool{}
	for _, c := range registry {
		for _, m := range c.Methods {
			covered[m] = true
		}
	}
	var gaps []string
	for _, m := range Requirements() {
		if !covered[m] {
			gaps = append(gaps, m)
		}
	}
	return gaps
}
