package golang

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// ServicesFile holds the Go SDK's service objects (package octet), one per `sdk.service` of
// methods.json: each operation builds the params from its positional arguments and its
// options and calls Send or Notify, so no hand-written code spells a method's wire name.
const ServicesFile = "sdk-go/services_gen.go"

// sdkFilled are params the SDK fills itself, never arguments nor options: the parent
// request (from the call in progress) and the progress sequence (per parent, in order).
// Every exception to "a param is an argument or an option" is in this one table.
var sdkFilled = map[string]bool{"parent_request_id": true, "sequence": true}

// sdkDefaults are options (params type.member) whose zero value the operation replaces with
// the SDK's default, written as Go in the service's scope (s.e is the Extension): the KV
// namespace defaults to the extension's own name, as in Python and TypeScript; the agent
// limits the schema leaves required default as the other SDKs default them.
var sdkDefaults = map[string]string{
	"KVGetParams.namespace":      "s.e.ownNamespace()",
	"KVListParams.namespace":     "s.e.ownNamespace()",
	"AgentModelsParams.limit":    "50", // as in Python and TypeScript
	"AgentWaitParams.timeout_ms": "protocol.AgentWaitDefaultMS",
	"NotificationParams.level":   `"info"`,
}

// sdkHandWritten are the operations the Go SDK writes by hand on the generated service
// object, because they carry more than the wire's params: the catalog's operations take the
// tools with their handlers (*ToolDef) and stage the revision they ask for.
var sdkHandWritten = map[string]bool{"catalog.register": true, "catalog.unregister": true, "catalog.replace": true}

type goService struct {
	name string // snake_case service name
	ops  []ir.Method
}

// services groups the sent methods by service in schema order.
func services(m *ir.Model) []*goService {
	var out []*goService
	by := map[string]*goService{}
	for _, me := range emit.Sent(m) {
		if me.SDK == nil {
			continue
		}
		s := by[me.SDK.Service]
		if s == nil {
			s = &goService{name: me.SDK.Service}
			by[s.name] = s
			out = append(out, s)
		}
		s.ops = append(s.ops, me)
	}
	return out
}

// protoIdent qualifies the protocol package's exported type names in a Go type expression.
var protoIdent = regexp.MustCompile(`(^|[^.\w])([A-Z]\w*)`)

func qualify(t string) string { return protoIdent.ReplaceAllString(t, "${1}protocol.${2}") }

func lowerCamel(s string) string {
	g := emit.GoName(s)
	for i, r := range g {
		if r < 'A' || r > 'Z' {
			if i > 1 {
				i-- // keep an initialism's last capital: IDs -> ids, APIVersion -> apiVersion
			}
			return strings.ToLower(g[:i]) + g[i:]
		}
	}
	return strings.ToLower(g)
}

func goServices(m *ir.Model, hash string) (string, error) {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", hash))
	b.WriteString("// Source: schema/methods.json (the sdk rows).\n\n")
	b.WriteString("package octet\n\nimport (\n\t\"context\"\n\t\"encoding/json\"\n\n\t\"github.com/octet-kit/octet/sdk-go/protocol\"\n)\n\n")
	b.WriteString("var _ = json.RawMessage(nil)\n\n")
	svcs := services(m)
	b.WriteString("// services are the Extension's service objects (ext.KV, ext.UI, ...), one per service of\n// methods.json's sdk rows; Extension embeds them.\ntype services struct {\n")
	for _, s := range svcs {
		fmt.Fprintf(&b, "\t%s *%sService\n", emit.GoName(s.name), emit.GoName(s.name))
	}
	b.WriteString("}\n\nfunc (s *services) bind(e *Extension) {\n")
	for _, s := range svcs {
		fmt.Fprintf(&b, "\ts.%s = &%sService{e: e}\n", emit.GoName(s.name), emit.GoName(s.name))
	}
	b.WriteString("}\n\n")
	for _, s := range svcs {
		svc := emit.GoName(s.name)
		fmt.Fprintf(&b, "// %sService is ext.%s: the %s operations, each sent through Send or Notify.\ntype %sService struct{ e *Extension }\n\n", svc, svc, s.name, svc)
		for _, me := range s.ops {
			if sdkHandWritten[me.SDK.Service+"."+me.SDK.Operation] {
				continue
			}
			if err := goOperation(&b, m, svc, me); err != nil {
				return "", fmt.Errorf("%s: %w", me.Name, err)
			}
		}
	}
	return b.String(), nil
}

func goOperation(b *bytes.Buffer, m *ir.Model, svc string, me ir.Method) error {
	pt := emit.SingleType(me.Params)
	n := m.Lookup(pt)
	if n == nil {
		return fmt.Errorf("one params type for every version is needed, got %v", me.Params)
	}
	op := emit.GoName(me.SDK.Operation)
	optName := svc + op + "Options"
	desc := "protocol." + reqVar(me)
	isArg := map[string]bool{}
	for _, a := range me.SDK.Arguments {
		isArg[a] = true
	}
	fields := map[string]*ir.Field{}
	for _, f := range n.Type.Fields {
		fields[f.Name] = f
	}
	union := len(n.Type.OneOf) > 0
	var opts []*ir.Field
	if !union {
		for _, f := range n.Type.Fields {
			if !isArg[f.Name] && !sdkFilled[f.Name] {
				opts = append(opts, f)
			}
		}
	}
	// The options type.
	switch {
	case union:
		fmt.Fprintf(b, "// %s are the options of %s.%s: the params of %s, one of their variants.\ntype %s = protocol.%s\n\n", optName, svc, op, me.Name, optName, pt)
	default:
		fmt.Fprintf(b, "// %s are the options of %s.%s: the params of %s other than its arguments.\ntype %s struct {\n", optName, svc, op, me.Name, optName)
		for _, f := range opts {
			if f.Type.Description != "" {
				goComment(b, "\t", f.Type.Description)
			}
			fmt.Fprintf(b, "\t%s %s\n", emit.GoName(f.Name), qualify(goType(m, f.Type, f.Required)))
		}
		b.WriteString("}\n\n")
	}
	// The operation.
	var sig []string
	for _, a := range me.SDK.Arguments {
		f := fields[a]
		if f == nil {
			return fmt.Errorf("argument %q is no field of %s", a, pt)
		}
		sig = append(sig, fmt.Sprintf("%s %s", lowerCamel(a), qualify(goType(m, f.Type, f.Required))))
	}
	sig = append(sig, "opts ..."+optName)
	ret := "error"
	if me.Kind == "request" {
		ret = fmt.Sprintf("(protocol.%s, error)", emit.SingleType(me.Result))
	}
	goComment(b, "", fmt.Sprintf("%s sends %s: %s At most one options value.", op, me.Name, me.Description))
	fmt.Fprintf(b, "func (s *%sService) %s(ctx context.Context, %s) %s {\n", svc, op, strings.Join(sig, ", "), ret)
	fail := "return err"
	if me.Kind == "request" {
		fail = "var zero protocol." + emit.SingleType(me.Result) + "\n\t\treturn zero, err"
	}
	fmt.Fprintf(b, "\tif err := atMostOne(%q, len(opts)); err != nil {\n\t\t%s\n\t}\n", svc+"."+op, fail)
	fmt.Fprintf(b, "\tvar p protocol.%s\n", pt)
	if union {
		b.WriteString("\tif len(opts) > 0 {\n\t\tp = opts[0]\n\t}\n")
	} else {
		if len(opts) > 0 {
			b.WriteString("\tif len(opts) > 0 {\n\t\to := opts[0]\n")
			for _, f := range opts {
				fmt.Fprintf(b, "\t\tp.%s = o.%s\n", emit.GoName(f.Name), emit.GoName(f.Name))
			}
			b.WriteString("\t}\n")
		}
		for _, a := range me.SDK.Arguments {
			fmt.Fprintf(b, "\tp.%s = %s\n", emit.GoName(a), lowerCamel(a))
		}
		for _, f := range opts {
			if d, ok := sdkDefaults[pt+"."+f.Name]; ok {
				zero := "0"
				if goType(m, f.Type, f.Required) == "string" {
					zero = `""`
				}
				fmt.Fprintf(b, "\tif p.%s == %s {\n\t\tp.%s = %s\n\t}\n", emit.GoName(f.Name), zero, emit.GoName(f.Name), d)
				continue
			}
			goDefault(b, m, f)
		}
	}
	if me.Kind == "request" {
		fmt.Fprintf(b, "\treturn Send(ctx, s.e, %s, p)\n}\n\n", desc)
	} else {
		fmt.Fprintf(b, "\treturn Notify(ctx, s.e, %s, p)\n}\n\n", desc)
	}
	return nil
}

// goDefault gives a required option left zero the schema's default, so an operation called
// without options sends what the schema says the absent value means.
func goDefault(b *bytes.Buffer, m *ir.Model, f *ir.Field) {
	if !f.Required {
		return
	}
	def := f.Type.Default
	if def == nil {
		def = m.Resolve(f.Type).Default
	}
	var zero, val string
	switch d := def.(type) {
	case string:
		zero, val = `""`, fmt.Sprintf("%q", d)
	case int64:
		zero, val = "0", fmt.Sprint(d)
	case float64:
		zero, val = "0", fmt.Sprint(d)
	default:
		return
	}
	fmt.Fprintf(b, "\tif p.%s == %s {\n\t\tp.%s = %s\n\t}\n", emit.GoName(f.Name), zero, emit.GoName(f.Name), val)
}
