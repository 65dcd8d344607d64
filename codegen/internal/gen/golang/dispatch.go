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
type RequestType[P, R any] struct {
	Method     string
	Feature    Feature // negotiated feature the host needs for it ("" none)
	OwnerBound bool    // params name the parent host request whose owner applies
}

// NotificationType binds an extension-to-host notification to its params type.
type NotificationType[P any] struct {
	Method     string
	Feature    Feature
	OwnerBound bool
}

`)
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
			fmt.Fprintf(&b, "var %s = RequestType[%s, %s]{Method: Method%s, Feature: %s, OwnerBound: %v}\n\n", reqVar(me), p, emit.SingleType(me.Result), emit.GoName(me.Name), feat, me.OwnerBound)
		} else {
			fmt.Fprintf(&b, "var %s = NotificationType[%s]{Method: Method%s, Feature: %s, OwnerBound: %v}\n\n", reqVar(me), p, emit.GoName(me.Name), feat, me.OwnerBound)
		}
	}
	return b.String()
}

func reqVar(me ir.Method) string {
	if me.Kind == "request" {
		return "Request" + emit.GoName(me.Name)
	}
	return "Notify" + emit.GoName(me.Name)
}
