package typescript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// ServicesFile holds the generated service classes: one per `sdk.service` of methods.json,
// one operation per method, each building its params from positional arguments and an
// options object and handing them to the session's send.
const ServicesFile = "services.ts"

// filledBySession are params an operation never takes from its caller as written: the
// session fills parent_request_id from the call in progress (the `parent` option names
// another), and namespace defaults to the extension's own name (an option that may name a
// sub-namespace).
var filledBySession = map[string]bool{"parent_request_id": true}

// sessionDefaulted are params the session fills when the caller leaves them out.
var sessionDefaulted = map[string]bool{"namespace": true}

// tsCamel turns a wire name into a TypeScript member name (mime_type -> mimeType); no
// initialisms, so the option is the wire name with its words joined.
func tsCamel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// tsServiceClass names a service's class (kv -> KVService, agents -> AgentsService).
func tsServiceClass(service string) string { return emit.GoName(service) + "Service" }

// paramField is one member of a params type, seen across the variants of a union.
type paramField struct {
	name     string
	owner    string // the (variant) type declaring it, for the indexed access type
	required bool   // required in every variant
	def      any
}

// paramFields lists a params type's fields in declaration order; for a union, every
// variant's, required only when every variant requires it.
func paramFields(m *ir.Model, name string) []paramField {
	n := m.Lookup(name)
	if n == nil {
		return nil
	}
	variants := []string{name}
	if len(n.Type.OneOf) > 0 {
		variants = variants[:0]
		for _, v := range n.Type.OneOf {
			variants = append(variants, v.Ref)
		}
	}
	var out []paramField
	idx := map[string]int{}
	count := map[string]int{}
	for _, vn := range variants {
		vt := m.Lookup(vn)
		if vt == nil {
			continue
		}
		for _, f := range vt.Type.Fields {
			if f.Required {
				count[f.Name]++
			}
			if _, seen := idx[f.Name]; seen {
				continue
			}
			idx[f.Name] = len(out)
			out = append(out, paramField{name: f.Name, owner: vn, def: f.Type.Default})
		}
	}
	for i := range out {
		out[i].required = count[out[i].name] == len(variants)
	}
	return out
}

func tsLiteral(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// tsServices renders generated/services.ts.
func tsServices(m *ir.Model) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, m.Methods, "services")))
	b.WriteString(`// Source: schema/methods.json (each sent method's "sdk" row) and the params types.
// One class per service; each operation takes the row's arguments in order and every other
// param as an option (its wire name in camelCase), fills the schema's defaults and calls
// the session's send, which checks the negotiated feature, validates with the generated
// validator and returns the typed result. The SDK's services.ts adds the hand-written
// conveniences (schema/sdk-surface.json) on top of these classes.
`)
	imports := map[string]map[string]bool{}
	addImport := func(typ string) {
		nt := m.Lookup(typ)
		if nt == nil || nt.File == nil {
			return
		}
		if imports[nt.File.Stem] == nil {
			imports[nt.File.Stem] = map[string]bool{}
		}
		imports[nt.File.Stem][typ] = true
	}
	var services []string
	byService := map[string][]ir.Method{}
	for _, me := range emit.Sent(m) {
		if me.SDK == nil || emit.SingleType(me.Params) == "" {
			continue
		}
		s := me.SDK.Service
		if _, ok := byService[s]; !ok {
			services = append(services, s)
		}
		byService[s] = append(byService[s], me)
		for _, f := range paramFields(m, emit.SingleType(me.Params)) {
			addImport(f.owner)
		}
		if r := emit.SingleType(me.Result); r != "" {
			addImport(r)
		}
	}
	var stems []string
	for s := range imports {
		stems = append(stems, s)
	}
	emit.SortStrings(stems)
	for _, s := range stems {
		var names []string
		for n := range imports[s] {
			names = append(names, n)
		}
		emit.SortStrings(names)
		fmt.Fprintf(&b, "import type { %s } from \"./%s.types.js\";\n", strings.Join(names, ", "), s)
	}
	b.WriteString("import { Requests, type CallOptions, type Sender } from \"./requests.js\";\n\n")

	var surface bytes.Buffer
	surface.WriteString("/** Every generated operation's positional arguments (wire names), by service: the API-parity tests compare it. */\nexport const GENERATED_SURFACE: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {\n")
	for _, s := range services {
		class := tsServiceClass(s)
		fmt.Fprintf(&surface, "  %s: {\n", s)
		// Options interfaces first, then the class.
		for _, me := range byService[s] {
			op := emit.GoName(me.SDK.Operation)
			args := map[string]bool{}
			for _, a := range me.SDK.Arguments {
				args[a] = true
			}
			fmt.Fprintf(&b, "/** Options of %s.%s (%s). */\nexport interface %s%sOptions extends CallOptions {\n", s, tsCamel(me.SDK.Operation), me.Name, emit.GoName(s), op)
			for _, f := range paramFields(m, emit.SingleType(me.Params)) {
				if args[f.name] || filledBySession[f.name] {
					continue
				}
				// An optional member may be given as undefined: send drops it (so a caller can
				// pass an optional value straight through).
				if f.required && f.def == nil && !sessionDefaulted[f.name] {
					fmt.Fprintf(&b, "  %s: %s[%s];\n", tsCamel(f.name), f.owner, tsStr(f.name))
				} else {
					fmt.Fprintf(&b, "  %s?: %s[%s] | undefined;\n", tsCamel(f.name), f.owner, tsStr(f.name))
				}
			}
			b.WriteString("}\n\n")
			q := make([]string, len(me.SDK.Arguments))
			for i, a := range me.SDK.Arguments {
				q[i] = tsStr(a)
			}
			fmt.Fprintf(&surface, "    %s: [%s],\n", tsCamel(me.SDK.Operation), strings.Join(q, ", "))
		}
		surface.WriteString("  },\n")
		fmt.Fprintf(&b, "/** The %s service: the generated operations. */\nexport class %s {\n  constructor(protected readonly sender: Sender) {}\n", s, class)
		for _, me := range byService[s] {
			fields := paramFields(m, emit.SingleType(me.Params))
			ownerOf := map[string]string{}
			required := false
			for _, f := range fields {
				ownerOf[f.name] = f.owner
				if !hasArg(me, f.name) && !filledBySession[f.name] && f.required && f.def == nil && !sessionDefaulted[f.name] {
					required = true
				}
			}
			var sig, members []string
			for _, a := range me.SDK.Arguments {
				sig = append(sig, fmt.Sprintf("%s: %s[%s]", tsCamel(a), ownerOf[a], tsStr(a)))
				members = append(members, fmt.Sprintf("%s: %s", tsStr(a), tsCamel(a)))
			}
			optType := fmt.Sprintf("%s%sOptions", emit.GoName(s), emit.GoName(me.SDK.Operation))
			if required {
				sig = append(sig, "options: "+optType)
			} else {
				sig = append(sig, "options: "+optType+" = {}")
			}
			for _, f := range fields {
				if hasArg(me, f.name) || filledBySession[f.name] {
					continue
				}
				v := "options." + tsCamel(f.name)
				if f.def != nil {
					v += " ?? " + tsLiteral(f.def)
				}
				members = append(members, fmt.Sprintf("%s: %s", tsStr(f.name), v))
			}
			ret, call := "void", "notify"
			if me.Kind == "request" {
				ret, call = fmt.Sprintf("Promise<%s>", emit.SingleType(me.Result)), "request"
			}
			tsDoc(&b, "  ", fmt.Sprintf("%s: %s", me.Name, me.Description))
			fmt.Fprintf(&b, "  %s(%s): %s {\n    return this.sender.%s(Requests.%s, {%s}, options);\n  }\n",
				tsCamel(me.SDK.Operation), strings.Join(sig, ", "), ret, call, emit.UpperSnake(me.Name), spaced(strings.Join(members, ", ")))
		}
		b.WriteString("}\n\n")
	}
	surface.WriteString("};\n")
	b.Write(surface.Bytes())
	return b.String()
}

func hasArg(me ir.Method, name string) bool {
	for _, a := range me.SDK.Arguments {
		if a == name {
			return true
		}
	}
	return false
}

// spaced pads a non-empty object literal body ({ a: 1 }), leaves an empty one {}.
func spaced(s string) string {
	if s == "" {
		return ""
	}
	return " " + s + " "
}
