// Package markdown is the generator's documentation target: docs/reference/.
package markdown

import (
	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Target renders the reference under docs/reference/.
type Target struct{}

// Models writes index.md (methods, limits, errors) and one page per schema file.
func (Target) Models(m *ir.Model, out emit.Output) error { return emitMarkdown(m, out) }

// Features writes negotiation.md.
func (Target) Features(m *ir.Model, out emit.Output) error {
	n := m.Negotiation
	if n == nil {
		return nil
	}
	out[Dir+"negotiation.md"] = []byte(mdFeatures(n, emit.Fingerprint(true, n)))
	return nil
}
