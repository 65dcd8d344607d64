package emit

import (
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The routing metadata of the registry (direction, dispatch role, owner binding, gating
// feature) as the dispatch emitters of every target read it.

// received lists the methods an extension receives (host_to_extension and both), in schema order.
func Received(m *ir.Model) []ir.Method {
	var out []ir.Method
	for _, me := range m.Methods {
		if me.Dispatch != "" {
			out = append(out, me)
		}
	}
	return out
}

// sent lists the methods only an extension sends.
func Sent(m *ir.Model) []ir.Method {
	var out []ir.Method
	for _, me := range m.Methods {
		if me.Direction == "extension_to_host" {
			out = append(out, me)
		}
	}
	return out
}

// roleMethods lists the received methods of one dispatch role.
func RoleMethods(m *ir.Model, role string) []string {
	var out []string
	for _, me := range Received(m) {
		if me.Dispatch == role {
			out = append(out, me.Name)
		}
	}
	return out
}

// offered lists, per version, the features offered that way (required/optional/conditional).
func Offered(n *ir.Negotiation, how string) []ir.Pair {
	var out []ir.Pair
	for _, v := range n.Versions {
		var names []string
		for _, f := range n.Features {
			for _, o := range f.Offer {
				if o.Name == v && o.Text == how {
					names = append(names, f.Name)
				}
			}
		}
		out = append(out, ir.Pair{Name: v, Text: strings.Join(names, ",")})
	}
	return out
}

func SplitList(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

// singleParams returns the one params type of a method, or "" when it varies by version.
func SingleType(vs []ir.VersionedType) string {
	if len(vs) == 1 {
		return vs[0].Type
	}
	return ""
}

var OfferKinds = []string{"required", "optional", "conditional"}
