package golang

import (
	"bytes"
	"fmt"
	"go/format"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

func emitGo(m *ir.Model, out emit.Output) error {
	files := map[string]string{
		"limits_gen.go": goLimits(m),
		"errors_gen.go": goErrors(m),
	}
	for name, src := range goTypeFiles(m) {
		if _, dup := files[name]; dup {
			return fmt.Errorf("go emitter: two outputs named %s", name)
		}
		files[name] = src
	}
	for name, src := range files {
		b, err := format.Source([]byte(src))
		if err != nil {
			return fmt.Errorf("gofmt %s: %w\n%s", name, err, numbered(src))
		}
		out[Dir+name] = b
	}
	depth, err := format.Source([]byte(goStrictDepth(m)))
	if err != nil {
		return fmt.Errorf("gofmt strictjson limits: %w", err)
	}
	out[Dir+"strictjson/limits_gen.go"] = depth
	return nil
}

// goStrictDepth gives package strictjson the nesting bound. The protocol package imports
// strictjson, so strictjson cannot import the protocol constant; it gets its own copy.
func goStrictDepth(m *ir.Model) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, m.Limits)))
	b.WriteString("\npackage strictjson\n\n")
	for _, l := range m.Limits {
		if l.Name == "MAX_JSON_DEPTH" {
			goComment(&b, "", fmt.Sprintf("MaxDepth is %s, in %s: %s", l.Name, l.Unit, l.Description))
			fmt.Fprintf(&b, "const MaxDepth = %d\n", l.Value)
		}
	}
	return b.String()
}

func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%4d %s\n", i+1, l)
	}
	return b.String()
}

// goComment renders a description as // lines (one per paragraph line; no wrapping, so a
// description edit touches only the lines that show it).
func goComment(b *bytes.Buffer, indent, text string) {
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		fmt.Fprintf(b, "%s// %s\n", indent, l)
	}
}

func goLimits(m *ir.Model) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, m.Limits)))
	b.WriteString("\npackage protocol\n\n// Limits of the wire (schema/limits.schema.json).\nconst (\n")
	for _, l := range m.Limits {
		goComment(&b, "\t", fmt.Sprintf("%s is %s, in %s: %s", emit.GoName(strings.ToLower(l.Name)), l.Name, l.Unit, l.Description))
		fmt.Fprintf(&b, "\t%s = %d\n", emit.GoName(strings.ToLower(l.Name)), l.Value)
	}
	b.WriteString(")\n")
	return b.String()
}

// goErrorMessages emits the registry's message templates as Message<Name> constants.
func goErrorMessages(b *bytes.Buffer, m *ir.Model) {
	n := 0
	for _, e := range m.Errors {
		n += len(e.Messages)
	}
	if n == 0 {
		return
	}
	b.WriteString("// Message templates of the registry: every SDK builds the message of each situation from\n// its template, each {placeholder} replaced by its value (see FormatMessage).\nconst (\n")
	for _, e := range m.Errors {
		for _, msg := range e.Messages {
			goComment(b, "\t", fmt.Sprintf("Message%s (%s, data %s): %s", emit.GoName(msg.Name), e.Name, msg.Data, msg.Meaning))
			fmt.Fprintf(b, "\tMessage%s = %s\n", emit.GoName(msg.Name), strconv.Quote(msg.Template))
		}
	}
	b.WriteString(")\n\n")
}

func goErrors(m *ir.Model) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, m.Errors)))
	b.WriteString("\npackage protocol\n\n// Error codes of the registry (schema/errors.schema.json).\nconst (\n")
	for _, e := range m.Errors {
		goComment(&b, "\t", fmt.Sprintf("Code%s (%s): %s", emit.GoName(e.Name), e.Name, e.Meaning))
		fmt.Fprintf(&b, "\tCode%s int64 = %d\n", emit.GoName(e.Name), e.Code)
	}
	b.WriteString(")\n\n")
	goErrorMessages(&b, m)
	b.WriteString(`// ErrorInfo is one row of the error registry.
type ErrorInfo struct {
	Code      int64
	Name      string
	Meaning   string
	Category  string // "protocol" or "host_service"
	Retryable string // "no", "maybe" or "yes"
	RetryHint string
	DataType  string // name of the type of "data"; "" when the error carries no data
}

// ErrorRegistry lists every registered error code, in schema order.
var ErrorRegistry = []ErrorInfo{
`)
	for _, e := range m.Errors {
		fmt.Fprintf(&b, "\t{Code: %d, Name: %s, Meaning: %s, Category: %s, Retryable: %s, RetryHint: %s, DataType: %s},\n",
			e.Code, strconv.Quote(e.Name), strconv.Quote(e.Meaning), strconv.Quote(e.Category), strconv.Quote(e.Retryable), strconv.Quote(e.RetryHint), strconv.Quote(e.Data))
	}
	b.WriteString("}\n\n")
	b.WriteString(`// LookupError returns the registry row of code.
func LookupError(code int64) (ErrorInfo, bool) {
	for _, e := range ErrorRegistry {
		if e.Code == code {
			return e, true
		}
	}
	return ErrorInfo{}, false
}
`)
	return b.String()
}
