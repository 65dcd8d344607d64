package host

import (
	"fmt"
	"slices"

	"github.com/octet-kit/octet/host/manifest"
)

// ModelCatalog is what the model may select and call: the all-extensions catalog narrowed
// by the session owner's allowed_tools, without the owner's private tools, and without
// anything the operator denied (denials always win). Like Catalog it is immutable.
type ModelCatalog struct {
	// Trusted is false when the owner could not vouch for the current catalog (it is not
	// running): the entries are then the last trusted catalog's, narrowed to the tools that
	// still exist, never widened.
	Trusted bool           `json:"trusted"`
	Tools   []CatalogEntry `json:"tools"` // sorted by tool name
}

// Has reports whether the model may call tool of extension ext.
func (m *ModelCatalog) Has(ext, tool string) bool {
	for _, e := range m.Tools {
		if e.Extension == ext && e.Tool.Name == tool {
			return true
		}
	}
	return false
}

// ToolNotAllowedError refuses a model call outside the model's catalog, with why: denied
// (an operator denial), private (the owner's private operation), not_allowed (outside the
// owner's allowed_tools) or untrusted (the owner is not running and the last trusted
// catalog did not hold it).
type ToolNotAllowedError struct {
	Extension, Tool, Reason string
}

func (e *ToolNotAllowedError) Error() string {
	return fmt.Sprintf("tool %s/%s is not in the model's catalog (%s)", e.Extension, e.Tool, e.Reason)
}

// ModelCatalog returns the model's catalog now. While the owner is ready, it is computed
// from the current catalog and remembered as the last trusted one; while it is not (crashed,
// restarting, parked, stopped: a catalog failure), the last trusted catalog stays enforced,
// narrowed to tools that still exist, until the owner is ready again.
func (h *Host) ModelCatalog() *ModelCatalog {
	cat := h.Catalog()
	owner := h.Owner()
	var session manifest.Session
	if owner != "" {
		e := h.Extension(owner)
		if e == nil || e.Status().State != StateReady {
			return h.lastTrusted(cat)
		}
		session = e.entry.Manifest.Session
	}
	m := &ModelCatalog{Trusted: true}
	for _, entry := range cat.Tools {
		if h.refusal(session, owner, entry.Extension, entry.Tool.Name) == "" {
			m.Tools = append(m.Tools, entry)
		}
	}
	h.trusted.Store(m)
	return m
}

// lastTrusted is the last trusted model catalog, narrowed to the tools cat still holds
// from the same extension; with none, nothing is callable.
func (h *Host) lastTrusted(cat *Catalog) *ModelCatalog {
	m := &ModelCatalog{}
	if t := h.trusted.Load(); t != nil {
		for _, entry := range t.Tools {
			if cur, ok := cat.Lookup(entry.Tool.Name); ok && cur.Extension == entry.Extension && !h.denied(entry.Extension, entry.Tool.Name) {
				m.Tools = append(m.Tools, cur)
			}
		}
	}
	return m
}

// refusal is why the model may not see ext/tool under the owner's session table, or "".
func (h *Host) refusal(session manifest.Session, owner, ext, tool string) string {
	if h.denied(ext, tool) {
		return "denied"
	}
	if ext == owner && slices.Contains(session.PrivateTools, tool) {
		return "private"
	}
	if len(session.AllowedTools) > 0 && !slices.ContainsFunc(session.AllowedTools, func(p string) bool { return manifest.MatchToolPattern(p, ext, tool) }) {
		return "not_allowed"
	}
	return ""
}

func (h *Host) denied(ext, tool string) bool {
	return slices.ContainsFunc(h.opts.DeniedTools, func(p string) bool { return manifest.MatchToolPattern(p, ext, tool) })
}

// CheckModelCall is the check before a model's call executes. While the owner is ready it
// judges ext/tool by policy (a tool not yet in the catalog, of an idle extension, is judged
// by name) and refreshes the last trusted catalog; while it is not, only a tool of the last
// trusted catalog passes. A refusal is a *ToolNotAllowedError saying why.
func (h *Host) CheckModelCall(ext, tool string) error {
	owner := h.Owner()
	var session manifest.Session
	if owner != "" {
		e := h.Extension(owner)
		if e == nil || e.Status().State != StateReady {
			if h.denied(ext, tool) {
				return &ToolNotAllowedError{Extension: ext, Tool: tool, Reason: "denied"}
			}
			if !h.lastTrusted(h.Catalog()).Has(ext, tool) {
				return &ToolNotAllowedError{Extension: ext, Tool: tool, Reason: "untrusted"}
			}
			return nil
		}
		session = e.entry.Manifest.Session
	}
	if reason := h.refusal(session, owner, ext, tool); reason != "" {
		return &ToolNotAllowedError{Extension: ext, Tool: tool, Reason: reason}
	}
	h.ModelCatalog() // a trusted moment: remember what the owner vouches for now
	return nil
}

// CheckOwnerCall is the check before the owner calls one of its own tools (private ones
// included): only a tool the owner serves now, and operator denials still win.
func (h *Host) CheckOwnerCall(ext, tool string) error {
	owner := h.Owner()
	entry, ok := h.Catalog().Lookup(tool)
	switch {
	case owner == "" || ext != owner || !ok || entry.Extension != owner:
		return &ToolNotAllowedError{Extension: ext, Tool: tool, Reason: "not_owner"}
	case h.denied(ext, tool):
		return &ToolNotAllowedError{Extension: ext, Tool: tool, Reason: "denied"}
	}
	return nil
}
