// Package schema embeds the JSON Schema files that define the octet manifest and wire,
// and compiles them with the octet vocabulary (see vocab.go) so that Go code anywhere in
// the repository validates against exactly the files in this directory.
//
// The host validates a manifest with:
//
//	sch, err := schema.Manifest()
//	err = sch.Validate(doc) // doc from schema.Decode or jsonschema.UnmarshalJSON
package schema

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/schema/internal/strictjson"
)

// BaseURL is the common prefix of every file's $id; refs between files are relative to it.
const BaseURL = "https://octet-kit.dev/schema/"

//go:embed *.schema.json methods.json
var files embed.FS

// FS returns the schema files (the *.schema.json files and methods.json).
func FS() fs.FS { return files }

//go:embed vectors/negotiation/*.json
var negotiationVectors embed.FS

// NegotiationVectors returns schema/vectors/negotiation (file name -> JSON), the offers,
// answers and refusals every SDK's negotiation and the host's offer and check must agree on;
// the conformance suite replays them against an extension under test.
func NegotiationVectors() map[string][]byte {
	out := map[string][]byte{}
	names, _ := fs.Glob(negotiationVectors, "vectors/negotiation/*.json")
	for _, n := range names {
		b, err := negotiationVectors.ReadFile(n)
		if err == nil {
			out[strings.TrimPrefix(n, "vectors/negotiation/")] = b
		}
	}
	return out
}

// Files lists the embedded *.schema.json file names, sorted.
func Files() []string {
	names, _ := fs.Glob(files, "*.schema.json")
	sort.Strings(names)
	return names
}

// NewCompiler returns a compiler that knows every schema file in dir (any fs.FS laid out like
// this directory) under BaseURL, with the octet vocabulary asserted.
func NewCompiler(dir fs.FS) (*jsonschema.Compiler, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertVocabs()
	c.RegisterVocabulary(Vocabulary())
	names, err := fs.Glob(dir, "*.schema.json")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		data, err := fs.ReadFile(dir, name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
		if err != nil {
			return nil, fmt.Errorf("schema/%s: %w", name, err)
		}
		if err := c.AddResource(BaseURL+name, doc); err != nil {
			return nil, fmt.Errorf("schema/%s: %w", name, err)
		}
	}
	return c, nil
}

var (
	compileOnce sync.Once
	compiler    *jsonschema.Compiler
	compileErr  error
	cacheMu     sync.Mutex
	cache       = map[string]*jsonschema.Schema{}
)

// Compile compiles a location relative to BaseURL from the embedded files, e.g.
// "manifest.schema.json" or "content.schema.json#/$defs/ContentPart". Results are cached.
func Compile(loc string) (*jsonschema.Schema, error) {
	compileOnce.Do(func() { compiler, compileErr = NewCompiler(files) })
	if compileErr != nil {
		return nil, compileErr
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if s, ok := cache[loc]; ok {
		return s, nil
	}
	s, err := compiler.Compile(BaseURL + loc)
	if err != nil {
		return nil, err
	}
	cache[loc] = s
	return s, nil
}

// Manifest returns the compiled manifest schema (extension.toml parsed to JSON).
func Manifest() (*jsonschema.Schema, error) { return Compile("manifest.schema.json") }

// Decode parses one JSON document the way every octet decoder must: duplicate keys, lone
// surrogates and invalid UTF-8 are refused, numbers are kept as json.Number so the oracle
// sees `1.0` and integers beyond 2^53 exactly as written.
func Decode(data []byte) (any, error) { return strictjson.Parse(data) }

// Validate checks doc (from Decode) against the definition loc, e.g.
// "content.schema.json#/$defs/ContentPart".
func Validate(loc string, doc any) error {
	s, err := Compile(loc)
	if err != nil {
		return err
	}
	return s.Validate(doc)
}
