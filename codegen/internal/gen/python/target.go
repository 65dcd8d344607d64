// Package python is the generator's Python target: the octet_extension._generated
// package (a module per schema file, _models.py re-exporting them, _features.py, dispatch.py)
// and the dispatch test.
package python

import (
	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Where the Python artifacts go.
const (
	GenDir       = "sdk-python/src/octet_extension/_generated/" // one module per schema file
	DispatchFile = GenDir + "dispatch.py"
	GenInit      = GenDir + "__init__.py"
	DispatchTest = "sdk-python/tests/test_dispatch_gen.py"
)

// Target renders the Python SDK's generated modules.
type Target struct{}

// Models writes the generated package's type modules and the _models.py re-export.
func (Target) Models(m *ir.Model, out emit.Output) error { return emitPython(m, out) }

// Features writes the negotiation table.
func (Target) Features(m *ir.Model, out emit.Output) error {
	n := m.Negotiation
	if n == nil {
		return nil
	}
	out[FeaturesFile] = []byte(pyFeatures(n, emit.Fingerprint(true, n)))
	return nil
}

// Dispatch writes the dispatch over received methods, the package's __init__ and its test,
// and the sending side: a descriptor per sent method and the service operations over them.
func (Target) Dispatch(m *ir.Model, out emit.Output) error {
	hash := emit.Fingerprint(true, m.Methods, m.Negotiation)
	out[DispatchFile] = []byte(pyDispatch(m, hash))
	out[GenInit] = []byte(emit.Header("#", hash) + "# ruff: noqa: E501\n\"\"\"Code generated from schema/: never edit; change the schema or codegen.\"\"\"\n")
	out[DispatchTest] = []byte(pyDispatchTest(m, hash))
	out[SendersFile] = []byte(pySenders(m, hash))
	out[ServicesFile] = []byte(pyServices(m, hash))
	return nil
}
