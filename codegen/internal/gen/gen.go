// Package gen runs every target over the intermediate model and returns the generated
// files. Each output language is a package of its own (golang, python, typescript,
// markdown) behind the Target interface; emit holds what they share (naming, headers,
// fingerprints, the registry's routing sets).
package gen

import (
	"io/fs"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/gen/golang"
	"github.com/octet-kit/octet/codegen/internal/gen/markdown"
	"github.com/octet-kit/octet/codegen/internal/gen/python"
	"github.com/octet-kit/octet/codegen/internal/gen/typescript"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Output maps a repository-relative path to the bytes generated for it.
type Output = emit.Output

// Target is one output language. Each method renders one artifact of the schema into out,
// so a target that lacks an artifact does not compile: Generate lists every target under
// the interface it must implement.
type Target interface {
	// Models renders the schema's types with their validators, the limits, the error
	// registry and the method registry (for Markdown: the reference pages).
	Models(m *ir.Model, out Output) error
	// Features renders the negotiation table (x-octet-features); nothing when the schema
	// has none.
	Features(m *ir.Model, out Output) error
}

// CodeTarget is a language an SDK is written in: beyond a Target it renders the dispatch
// of the methods an extension receives and the typed descriptors of those it sends.
type CodeTarget interface {
	Target
	Dispatch(m *ir.Model, out Output) error
}

// The targets, in the order they run (each writes its own paths).
var (
	codeTargets = []CodeTarget{golang.Target{}, python.Target{}, typescript.Target{}}
	docTargets  = []Target{markdown.Target{}}
)

// Generate runs every artifact of every target.
func Generate(m *ir.Model) (Output, error) {
	out := Output{}
	markdown.Examples = Examples
	var all []Target
	for _, t := range codeTargets {
		all = append(all, t)
	}
	all = append(all, docTargets...)
	for _, t := range all {
		if err := t.Models(m, out); err != nil {
			return nil, err
		}
	}
	for _, t := range all {
		if err := t.Features(m, out); err != nil {
			return nil, err
		}
	}
	for _, t := range codeTargets {
		if err := t.Dispatch(m, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Regenerate is the command every generated file names on its second line.
const Regenerate = emit.Regenerate

// Where the targets write, for the commands and tests that look at generated files.
const (
	GoDir              = golang.Dir
	GoRequestsFile     = golang.RequestsFile
	PythonDispatchFile = python.DispatchFile
	PythonFeaturesFile = python.FeaturesFile
	PythonFile         = python.ModelsFile
	PythonGenDir       = python.GenDir
	TSDir              = typescript.Dir
	TSRequestsFile     = typescript.RequestsFile
	DocsDir            = markdown.Dir
)

// Examples supplies valid vectors for the docs (type name -> JSON text); nil means none.
// Generate hands it to the Markdown target.
var Examples fs.FS
