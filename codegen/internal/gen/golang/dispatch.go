package golang

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The dispatch emitters turn the registry's routing metadata (direction, dispatch role,
// owner binding, gating feature) into what each SDK's hand-written code would otherwise
// restate: method and feature constants, the derived sets (work methods, lifecycle events,
// features per offer), a handler interface for every method the extension receives with a
// dispatch table over it, and typed request descriptors for every method it sends.

func goDispatch(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", hash))
	b.WriteString("// Source: schema/methods.json, schema/initialize.schema.json x-octet-features.\n\n")
	b.WriteString("package protocol\n\nimport (\n\t\"context\"\n\n\t\"github.com/octet-kit/octet/sdk-go/protocol/strictjson\"\n)\n\n")
	b.WriteString("// Dispatch roles: how an SDK routes a method it receives (methods.json `dispatch`).\nconst (\n")
	for _, r := range ir.DispatchRoles {
		fmt.Fprintf(&b, "\tDispatch%s = %q\n", emit.GoName(r), r)
	}
	b.WriteString(")\n\n")
	b.WriteString("// HostHandler is what an SDK implements to receive the host's methods: one method per\n// method the registry lists as received (host_to_extension or both). An SDK missing one does\n// not compile where it binds NewHostRoutes. R is the SDK's request type (the protocol package\n// knows no transport).\ntype HostHandler[R any] interface {\n")
	for _, me := range emit.Received(m) {
		goComment(&b, "\t", fmt.Sprintf("%s (%s, %s %s): %s", emit.GoName(me.Name), me.Name, me.Dispatch, me.Kind, me.Description))
		fmt.Fprintf(&b, "\t%s(ctx context.Context, r R) (any, error)\n", emit.GoName(me.Name))
	}
	b.WriteString("}\n\n")
	b.WriteString(`// HostRoute is one row of the dispatch table.
type HostRoute[R any] struct {
	Method       string
	Dispatch     string // Dispatch* role
	Notification bool
	OwnerBound   bool              // params carry the caller's resource_owner
	Params       map[string]string // API version -> params type name
	Serve        func(ctx context.Context, r R) (any, error)
}

// CheckParams validates raw params against the type the registry names for the API
// version (unknown fields, bounds, patterns); a version without a type passes.
func (rt HostRoute[R]) CheckParams(apiVersion string, raw []byte) error {
	return validateParams(rt.Params[apiVersion], raw)
}

// NewHostRoutes binds h to the dispatch table, keyed by method name.
func NewHostRoutes[R any](h HostHandler[R]) map[string]HostRoute[R] {
	return map[string]HostRoute[R]{
`)
	for _, me := range emit.Received(m) {
		fmt.Fprintf(&b, "\t\tMethod%s: {Method: Method%s, Dispatch: Dispatch%s, Notification: %v, OwnerBound: %v, Params: %s, Serve: h.%s},\n",
			emit.GoName(me.Name), emit.GoName(me.Name), emit.GoName(me.Dispatch), me.Kind == "notification", me.OwnerBound, goVersionMap(me.Params), emit.GoName(me.Name))
	}
	b.WriteString("\t}\n}\n\n")
	b.WriteString(`// validateParams checks raw params against a named type after strict decoding. The
// routes are the methods the host sends, so their params are types ValidateFromHost knows.
func validateParams(typeName string, raw []byte) error {
	if typeName == "" {
		return nil
	}
	if raw == nil {
		raw = []byte("{}")
	}
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return err
	}
	return ValidateFromHost(typeName, doc)
}

`)
	for _, r := range []string{ir.DispatchWork, ir.DispatchEvent} {
		fmt.Fprintf(&b, "// %sMethods are the received methods whose role is %q, in schema order.\nvar %sMethods = []string{", emit.GoName(r), r, emit.GoName(r))
		for i, n := range emit.RoleMethods(m, r) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "Method%s", emit.GoName(n))
		}
		b.WriteString("}\n\n")
	}
	if n := m.Negotiation; n != nil {
		for _, how := range emit.OfferKinds {
			fmt.Fprintf(&b, "// %sFeatures maps an API version to the features offered %s in it, in table order.\nvar %sFeatures = map[string][]Feature{\n", emit.GoName(how), how, emit.GoName(how))
			for _, p := range emit.Offered(n, how) {
				fmt.Fprintf(&b, "\t%q: {", p.Name)
				for i, f := range emit.SplitList(p.Text) {
					if i > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "Feature%s", emit.GoName(f))
				}
				b.WriteString("},\n")
			}
			b.WriteString("}\n\n")
		}
	}
	return b.String()
}

func goVersionMap(vs []ir.VersionedType) string {
	var parts []string
	for _, v := range vs {
		for _, ver := range v.Versions {
			parts = append(parts, fmt.Sprintf("%q: %q", ver, v.Type))
		}
	}
	return "map[string]string{" + strings.Join(parts, ", ") + "}"
}

func goRequests(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", hash))
	b.WriteString("// Source: schema/methods.json.\n\n")
	b.WriteString(`package protocol

// RequestType binds an extension-to-host request to its params and result types, the way
// vscode-jsonrpc's RequestType does: a caller names the descriptor, never the method string.
// An SDK's Send checks the negotiated version, feature and contribution, fills what the
// SDK owns (the parent request), validates the params and the result against the schema.
type RequestType[P, R any] struct {
	Method       string
	Versions     []string          // API versions that have the method
	Feature      Feature           // negotiated feature the host needs for it ("" none)
	Contribution string            // manifest contribution that enables it ("" none)
	OwnerBound   bool              // params name the parent host request whose owner applies
	Result       map[string]string // API version -> result type name
}

// NotificationType binds an extension-to-host notification to its params type.
type NotificationType[P any] struct {
	Method       string
	Versions     []string
	Feature      Feature
	Contribution string
	OwnerBound   bool
}

// ParentSetter is implemented by the params of every method the extension sends that names
// a parent host request: the SDK fills parent_request_id from the call in progress.
type ParentSetter interface{ SetParentRequestID(id RequestID) }

// SequenceSetter is implemented by params with a per-parent sequence the SDK numbers.
type SequenceSetter interface{ SetSequence(n int64) }

`)
	strs := func(s []string) string {
		q := make([]string, len(s))
		for i, x := range s {
			q[i] = fmt.Sprintf("%q", x)
		}
		return "[]string{" + strings.Join(q, ", ") + "}"
	}
	setters := map[string]bool{}
	for _, me := range emit.Sent(m) {
		p := emit.SingleType(me.Params)
		if p == "" {
			continue
		}
		goComment(&b, "", fmt.Sprintf("%s is %s: %s", reqVar(me), me.Name, me.Description))
		feat := `""`
		if me.Feature != "" {
			feat = "Feature" + emit.GoName(me.Feature)
		}
		if me.Kind == "request" {
			fmt.Fprintf(&b, "var %s = RequestType[%s, %s]{Method: Method%s, Versions: %s, Feature: %s, Contribution: %q, OwnerBound: %v, Result: %s}\n\n", reqVar(me), p, emit.SingleType(me.Result), emit.GoName(me.Name), strs(me.Versions), feat, me.Contribution, me.OwnerBound, goVersionMap(me.Result))
		} else {
			fmt.Fprintf(&b, "var %s = NotificationType[%s]{Method: Method%s, Versions: %s, Feature: %s, Contribution: %q, OwnerBound: %v}\n\n", reqVar(me), p, emit.GoName(me.Name), strs(me.Versions), feat, me.Contribution, me.OwnerBound)
		}
		if !setters[p] {
			setters[p] = true
			goSentSetters(&b, m, p)
		}
	}
	return b.String()
}

// goSentSetters gives a sent params type the setters of the members the SDK fills; a union
// sets them on its variant.
func goSentSetters(b *bytes.Buffer, m *ir.Model, name string) {
	n := m.Lookup(name)
	if n == nil {
		return
	}
	for _, member := range []struct{ wire, fn, arg, typ string }{
		{"parent_request_id", "SetParentRequestID", "id", "RequestID"},
		{"sequence", "SetSequence", "n", "int64"},
	} {
		if len(n.Type.OneOf) > 0 {
			var vs []string
			for _, v := range n.Type.OneOf {
				if vn := m.Lookup(v.Ref); vn != nil && hasField(vn.Type, member.wire) {
					vs = append(vs, v.Ref)
				}
			}
			if len(vs) == 0 {
				continue
			}
			fmt.Fprintf(b, "// %s sets %s on the variant set.\nfunc (x *%s) %s(%s %s) {\n", member.fn, member.wire, name, member.fn, member.arg, member.typ)
			for _, v := range vs {
				fmt.Fprintf(b, "\tif x.%s != nil {\n\t\tx.%s.%s(%s)\n\t}\n", v, v, member.fn, member.arg)
			}
			b.WriteString("}\n\n")
			for _, v := range vs {
				goSentSetters(b, m, v)
			}
			continue
		}
		for _, f := range n.Type.Fields {
			if f.Name != member.wire {
				continue
			}
			val := member.arg
			if !f.Required {
				val = "&" + member.arg
			}
			fmt.Fprintf(b, "// %s sets %s (the SDK fills it).\nfunc (x *%s) %s(%s %s) { x.%s = %s }\n\n", member.fn, member.wire, name, member.fn, member.arg, member.typ, emit.GoName(f.Name), val)
		}
	}
}

func hasField(t *ir.Type, name string) bool {
	for _, f := range t.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

func reqVar(me ir.Method) string {
	if me.Kind == "request" {
		return "Request" + emit.GoName(me.Name)
	}
	return "Notify" + emit.GoName(me.Name)
}
