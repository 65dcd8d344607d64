package octet

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/octet-kit/octet/sdk-go/internal/jsonschema"
)

// The oracle: santhosh-tekuri/jsonschema, the validator the SDK used before it
// had its own (internal/jsonschema), with the fault flattening that made its
// error trees the fault contract's (oracle_faults_test.go,
// oracle_location_test.go). It lives only in tests: its package init compiles
// the 2020-12 meta-schema (about 4 ms and 1.7 MB at every start), so no
// extension binary may link it (TestExtensionBinaryDoesNotLinkTheOracle).
// The differential tests judge every shared corpus with both.

var oracleSeq atomic.Int64

// oracleOptions are how the oracle compiles: tool schemas and the JSON Schema
// Test Suite alike as standard draft 2020-12 (an integral 7.0 is an integer).
type oracleOptions struct {
	remotes map[string]any
	url     string
}

func oracleRegexp(s string) (validator.Regexp, error) {
	re, err := jsonschema.PortableRegexp(s)
	if err != nil {
		return nil, err
	}
	return (*regexp.Regexp)(re), nil
}

// oracleCompile compiles a schema's JSON text as the SDK did.
func oracleCompile(raw []byte, o oracleOptions) (*validator.Schema, error) {
	inst, err := validator.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := validator.NewCompiler()
	c.DefaultDraft(validator.Draft2020)
	c.UseRegexpEngine(oracleRegexp)
	if o.remotes != nil {
		c.UseLoader(mapLoader(o.remotes))
	}
	url := o.url
	if url == "" {
		url = fmt.Sprintf("mem:///schema/%d.json", oracleSeq.Add(1))
	}
	if err := c.AddResource(url, inst); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

type mapLoader map[string]any

func (m mapLoader) Load(url string) (any, error) {
	if doc, ok := m[url]; ok {
		return doc, nil
	}
	return nil, fmt.Errorf("no such remote %s (the suite is served from memory)", url)
}

// oracleFault is the oracle's reported fault for an instance (parsed by
// validator.UnmarshalJSON), or false when it finds the instance valid.
func oracleFault(sch *validator.Schema, inst any) (fault, bool) {
	err := sch.Validate(inst)
	if err == nil {
		return fault{}, false
	}
	ve, ok := err.(*validator.ValidationError)
	if !ok {
		return fault{reason: err.Error()}, true
	}
	return reportedFault(ve, itemOffsets(sch), inst), true
}

// printer words the oracle's library messages (keywords of older drafts).
var printer = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

// oracleMisjudgesStrings: santhosh-tekuri v6.0.2 takes a JSON string and a
// number of the same digits as equal one way round (const "7" accepts 7,
// uniqueItems refuses ["7", 7], but not [7, "7"]): it compares a string with a
// json.Number, which is a string type. JSON Schema, the Python and TypeScript
// SDKs and the SDK's validator never equate them (the fault vectors "a number
// is never equal to a string of the same digits" and "a string is never equal
// to a number of the same digits" pin it), so the differential tests skip an
// instance or schema holding a string that reads as a number.
func oracleMisjudgesStrings(docs ...any) bool {
	for _, d := range docs {
		if hasNumericString(d) {
			return true
		}
	}
	return false
}

func hasNumericString(v any) bool {
	switch v := v.(type) {
	case string:
		_, err := strconv.ParseFloat(v, 64)
		return err == nil
	case []any:
		for _, x := range v {
			if hasNumericString(x) {
				return true
			}
		}
	case map[string]any:
		for _, x := range v {
			if hasNumericString(x) {
				return true
			}
		}
	}
	return false
}
