package golang

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The negotiation table (x-octet-features) is emitted as plain data in every language; each
// SDK's hand-written negotiation (and the host's offer and check) reads only that data.

// messageName turns a message key (version_unsupported) into its constant suffix.
func messageName(k string) string { return emit.GoName(k) }

func goFeatures(n *ir.Negotiation, hash string) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", hash))
	b.WriteString("// Source: schema/initialize.schema.json x-octet-features.\n\npackage protocol\n\n")
	goComment(&b, "", "Negotiation rules: "+n.Description)
	b.WriteString("\n// FeatureOffer is how a host offers a feature in one API version.\ntype FeatureOffer string\n\n")
	b.WriteString("const (\n\tOfferRequired    FeatureOffer = \"required\"\n\tOfferOptional    FeatureOffer = \"optional\"\n\tOfferConditional FeatureOffer = \"conditional\"\n)\n\n")
	b.WriteString("// HostCondition names what must hold on the host for a conditional feature to be offered.\ntype HostCondition string\n\nconst (\n")
	for _, c := range n.Conditions {
		goComment(&b, "\t", fmt.Sprintf("Condition%s: %s", emit.GoName(c.Name), c.Text))
		fmt.Fprintf(&b, "\tCondition%s HostCondition = %q\n", emit.GoName(c.Name), c.Name)
	}
	b.WriteString(")\n\n// HostConditions lists every host condition, in schema order.\nvar HostConditions = []HostCondition{")
	for i, c := range n.Conditions {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "Condition%s", emit.GoName(c.Name))
	}
	b.WriteString("}\n\n")
	b.WriteString("// FeatureRule is one row of the negotiation table.\ntype FeatureRule struct {\n\tName string\n\t// Offer maps an API version to how the feature is offered; a version it lacks does not have the feature.\n\tOffer map[string]FeatureOffer\n\t// SDK says the SDKs implement the feature.\n\tSDK bool\n\t// Handler is the handler kind an extension must have registered to accept it (\"\" none).\n\tHandler string\n\t// Manifest is the dotted manifest member that must be non-empty to offer or accept it (\"\" none).\n\tManifest string\n\t// Needs are features that must be accepted alongside it.\n\tNeeds []string\n\t// Condition is the host condition of a conditional feature (\"\" otherwise).\n\tCondition HostCondition\n\tDescription string\n}\n\n")
	b.WriteString("// FeatureRules is the table, in the Feature enum's order.\nvar FeatureRules = []FeatureRule{\n")
	for _, f := range n.Features {
		fmt.Fprintf(&b, "\t{Name: %q, Offer: map[string]FeatureOffer{", f.Name)
		for i, o := range f.Offer {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q: %q", o.Name, o.Text)
		}
		fmt.Fprintf(&b, "}, SDK: %t, Handler: %q, Manifest: %q, Needs: %s, Condition: %q,\n\t\tDescription: %q},\n", f.SDK, f.Handler, f.Manifest, goStrings(f.Needs), f.Condition, f.Description)
	}
	b.WriteString("}\n\n// SpokenVersions are the API versions negotiation selects, in order.\nvar SpokenVersions = " + goStrings(n.Versions) + "\n\n")
	b.WriteString("// DistinctVersions are known versions refused with a reason of their own.\nvar DistinctVersions = map[string]string{")
	for i, d := range n.Distinct {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %q", d.Name, d.Text)
	}
	b.WriteString("}\n\n// LifecycleEvents is the LifecycleEvent enum in order: an answer lists its subscriptions in it.\nvar LifecycleEvents = " + goStrings(n.LifecycleEvents) + "\n")
	b.WriteString("\n// Negotiation messages: templates whose {placeholders} the negotiation fills in.\nconst (\n")
	for _, msg := range n.Messages {
		fmt.Fprintf(&b, "\tMsg%s = %q\n", messageName(msg.Name), msg.Text)
	}
	b.WriteString(")\n\n// LookupFeatureRule returns the row of a feature.\nfunc LookupFeatureRule(name string) (FeatureRule, bool) {\n\tfor _, f := range FeatureRules {\n\t\tif f.Name == name {\n\t\t\treturn f, true\n\t\t}\n\t}\n\treturn FeatureRule{}, false\n}\n")
	return b.String()
}

func goStrings(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}
