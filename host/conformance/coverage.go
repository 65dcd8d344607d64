package conformance

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/octet-kit/octet/schema"
)

// A requirement is one behaviour the schema's method registry (schema/methods.json)
// says an SDK has: a method, its cancellability, its progress, or one error code it
// may answer or must propagate. Its id is what a Check lists in Covers:
//
//	"tool/call"               the method itself
//	"tool/call cancellable"   $/cancelRequest reaches its handler
//	"tool/call progress"      it may emit $/progress
//	"tool/call error -32001"  that error code is produced (host→extension) or carried (extension→host)
type Requirement struct {
	ID     string
	Method string
}

// methodMeta is the part of a methods.json entry coverage reads.
type methodMeta struct {
	Name        string   `json:"name"`
	Cancellable []string `json:"cancellable"`
	Progress    []string `json:"progress"`
	Errors      []int    `json:"errors"`
}

// Requirements lists every requirement of the schema's method registry, in registry
// order; when the registry cannot be read, the bare methods of the wire design note.
func Requirements() []Requirement {
	metas := schemaMethods()
	if len(metas) == 0 {
		for _, m := range wireMethods {
			metas = append(metas, methodMeta{Name: m})
		}
	}
	var out []Requirement
	for _, m := range metas {
		out = append(out, Requirement{ID: m.Name, Method: m.Name})
		if len(m.Cancellable) > 0 {
			out = append(out, Requirement{ID: m.Name + " cancellable", Method: m.Name})
		}
		if len(m.Progress) > 0 {
			out = append(out, Requirement{ID: m.Name + " progress", Method: m.Name})
		}
		for _, code := range m.Errors {
			out = append(out, Requirement{ID: fmt.Sprintf("%s error %d", m.Name, code), Method: m.Name})
		}
	}
	return out
}

// wireMethods is the method list of docs/design/wire.md §5 and §6, the fallback.
var wireMethods = []string{
	"initialize", "tool/call", "command/execute", "hook/run", "context/collect", "status/collect",
	"tool/render", "shutdown", "$/cancelRequest",
	"session/started", "session/settled", "turn/started", "turn/settled", "tool/started", "tool/settled",
	"notification", "confirmation/request", "input/request", "context/contribution", "status/contribution",
	"presentation/update", "$/progress", "artifact/publish", "policy/evaluate", "secret/get",
	"tools/register", "tools/unregister", "agent/spawn", "agent/message", "agent/follow_up",
	"agent/models", "agent/list", "agent/wait", "agent/interrupt", "kv.get", "kv.list", "kv.commit",
}

func schemaMethods() []methodMeta {
	b, err := fs.ReadFile(schema.FS(), "methods.json")
	if err != nil {
		return nil
	}
	var doc struct {
		Methods []methodMeta `json:"methods"`
	}
	if json.Unmarshal(b, &doc) != nil {
		return nil
	}
	return doc.Methods
}

// Gaps returns the requirements no registered check covers.
func Gaps() []Requirement {
	covered := map[string]bool{}
	for _, c := range registry {
		for _, id := range c.Covers {
			covered[id] = true
		}
	}
	var gaps []Requirement
	for _, r := range Requirements() {
		if !covered[r.ID] {
			gaps = append(gaps, r)
		}
	}
	return gaps
}

// unknownCovers returns Covers entries that name no requirement (a typo, or a
// requirement the schema dropped).
func unknownCovers() []string {
	ids := map[string]bool{}
	for _, r := range Requirements() {
		ids[r.ID] = true
	}
	var out []string
	for _, c := range registry {
		for _, id := range c.Covers {
			if !ids[id] {
				out = append(out, c.Name+": "+id)
			}
		}
	}
	return out
}

// FormatGaps groups gaps by method: "hook/run (cancellable, error -32800)".
func FormatGaps(gaps []Requirement) string {
	var order []string
	parts := map[string][]string{}
	whole := map[string]bool{}
	for _, g := range gaps {
		whole[g.Method] = whole[g.Method] || g.ID == g.Method
		if !slices.Contains(order, g.Method) {
			order = append(order, g.Method)
		}
		if rest := strings.TrimPrefix(g.ID, g.Method); rest != "" {
			parts[g.Method] = append(parts[g.Method], strings.TrimSpace(rest))
		}
	}
	var out []string
	for _, m := range order {
		if whole[m] {
			out = append(out, m+" (untested)")
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s)", m, strings.Join(parts[m], ", ")))
	}
	return strings.Join(out, "; ")
}
