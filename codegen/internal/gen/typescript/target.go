// Package typescript is the generator's TypeScript target: sdk-typescript/src/generated
// and the dispatch test.
package typescript

import (
	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Where the TypeScript artifacts go: file names are relative to Dir except the test.
const (
	Dir          = "sdk-typescript/src/generated/"
	DispatchFile = "dispatch.ts"
	RequestsFile = "requests.ts"
	featuresFile = "features.ts"
	DispatchTest = "sdk-typescript/test/dispatch-gen.test.ts"
)

// Target renders the TypeScript SDK's generated modules.
type Target struct{}

// Models writes the types and their checks, limits, errors, method registry and index.ts.
func (Target) Models(m *ir.Model, out emit.Output) error { return emitTypeScript(m, out) }

// Features writes the negotiation table.
func (Target) Features(m *ir.Model, out emit.Output) error {
	if m.Negotiation == nil {
		return nil
	}
	out[Dir+featuresFile] = []byte(tsFeatures(m.Negotiation))
	return nil
}

// Dispatch writes the dispatch over received methods, the typed request descriptors and
// the dispatch test.
func (Target) Dispatch(m *ir.Model, out emit.Output) error {
	out[Dir+RequestsFile] = []byte(tsRequests(m))
	out[Dir+ServicesFile] = []byte(tsServices(m))
	out[Dir+DispatchFile] = []byte(tsDispatch(m))
	out[DispatchTest] = []byte(tsDispatchTest(m, emit.Fingerprint(true, m.Methods, m.Negotiation)))
	return nil
}
