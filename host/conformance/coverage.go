package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
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

// Requirements lists every requirement of the schema's method registry (the generated
// protocol.Methods), in registry order.
func Requirements() []Requirement {
	var out []Requirement
	for _, m := range protocol.Methods {
		out = append(out, Requirement{ID: m.Name, Method: m.Name})
		if len(m.Cancellable) > 0 {
			out = append(out, Requirement{ID: reqCancellable(m.Name), Method: m.Name})
		}
		if len(m.Progress) > 0 {
			out = append(out, Requirement{ID: reqProgress(m.Name), Method: m.Name})
		}
		for _, code := range m.Errors {
			out = append(out, Requirement{ID: reqError(m.Name, code), Method: m.Name})
		}
	}
	return out
}

// reqCancellable, reqProgress and reqError build the requirement ids Requirements lists, so
// a check's Covers names its method through the generated constant (protocol.Method*) and
// its code through protocol.Code*.
func reqCancellable(method string) string { return method + " cancellable" }

func reqProgress(method string) string { return method + " progress" }

func reqError(method string, code int64) string { return fmt.Sprintf("%s error %d", method, code) }

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
