// Package golang is the generator's Go target: the protocol package of the Go SDK
// (types with AppendJSON and validators, limits, errors, the method registry, the
// negotiation table, dispatch and request descriptors) and strictjson's depth bound.
package golang

import (
	"fmt"
	"go/format"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Where the Go artifacts go.
const (
	Dir          = "sdk-go/protocol/" // the protocol package
	DispatchFile = Dir + "dispatch_gen.go"
	RequestsFile = Dir + "requests_gen.go"
	featuresFile = Dir + "features_gen.go"
)

// Target renders the Go protocol package.
type Target struct{}

// Models writes the types, validators, limits, errors, method registry and strictjson's bound.
func (Target) Models(m *ir.Model, out emit.Output) error { return emitGo(m, out) }

// Features writes the negotiation table.
func (Target) Features(m *ir.Model, out emit.Output) error {
	n := m.Negotiation
	if n == nil {
		return nil
	}
	return gofmt(out, featuresFile, goFeatures(n, emit.Fingerprint(true, n)))
}

// Dispatch writes the dispatch over received methods, the typed request descriptors and
// the service objects built on them (the sending side's dispatch).
func (Target) Dispatch(m *ir.Model, out emit.Output) error {
	hash := emit.Fingerprint(true, m.Methods, m.Negotiation)
	if err := gofmt(out, DispatchFile, goDispatch(m, hash)); err != nil {
		return err
	}
	if err := gofmt(out, RequestsFile, goRequests(m, hash)); err != nil {
		return err
	}
	src, err := goServices(m, hash)
	if err != nil {
		return err
	}
	return gofmt(out, ServicesFile, src)
}

// gofmt formats src into out[name], showing the numbered source when it does not parse.
func gofmt(out emit.Output, name, src string) error {
	b, err := format.Source([]byte(src))
	if err != nil {
		return fmt.Errorf("gofmt %s: %w\n%s", name, err, numbered(src))
	}
	out[name] = b
	return nil
}
