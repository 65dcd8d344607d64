package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The negotiation table (x-octet-features) is emitted as plain data in every language; each
// SDK's hand-written negotiation (and the host's offer and check) reads only that data.

// PythonFeaturesFile is the generated Python negotiation table.
const PythonFeaturesFile = "sdk-python/src/octet_extension/_features.py"

func emitFeatures(m *ir.Model, out Output) error {
	n := m.Negotiation
	if n == nil {
		return nil
	}
	hash := fingerprint(true, n)
	src := goFeatures(n, hash)
	b, err := format.Source([]byte(src))
	if err != nil {
		return fmt.Errorf("gofmt features_gen.go: %w\n%s", err, numbered(src))
	}
	out[GoDir+"features_gen.go"] = b
	out[PythonFeaturesFile] = []byte(pyFeatures(n, hash))
	out[DocsDir+"negotiation.md"] = []byte(mdFeatures(n, hash))
	return nil
}

// messageName turns a message key (version_unsupported) into its constant suffix.
func messageName(k string) string { return goName(k) }

func goFeatures(n *ir.Negotiation, hash string) string {
	var b bytes.Buffer
	b.WriteString(header("//", hash))
	b.WriteString("// Source: schema/initialize.schema.json x-octet-features.\n\npackage protocol\n\n")
	goComment(&b, "", "Negotiation rules: "+n.Description)
	b.WriteString("\n// FeatureOffer is how a host offers a feature in one API version.\ntype FeatureOffer string\n\n")
	b.WriteString("const (\n\tOfferRequired    FeatureOffer = \"required\"\n\tOfferOptional    FeatureOffer = \"optional\"\n\tOfferConditional FeatureOffer = \"conditional\"\n)\n\n")
	b.WriteString("// HostCondition names what must hold on the host for a conditional feature to be offered.\ntype HostCondition string\n\nconst (\n")
	for _, c := range n.Conditions {
		goComment(&b, "\t", fmt.Sprintf("Condition%s: %s", goName(c.Name), c.Text))
		fmt.Fprintf(&b, "\tCondition%s HostCondition = %q\n", goName(c.Name), c.Name)
	}
	b.WriteString(")\n\n// HostConditions lists every host condition, in schema order.\nvar HostConditions = []HostCondition{")
	for i, c := range n.Conditions {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "Condition%s", goName(c.Name))
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

func pyFeatures(n *ir.Negotiation, hash string) string {
	var b bytes.Buffer
	b.WriteString(header("#", hash))
	b.WriteString("# ruff: noqa: E501\n# Source: schema/initialize.schema.json x-octet-features.\n")
	b.WriteString("\"\"\"The negotiation table: per feature how it is offered per API version and what it needs.\"\"\"\n\nfrom __future__ import annotations\n\n")
	b.WriteString("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from typing import Final, TypedDict\n\n    class FeatureRule(TypedDict):\n        offer: dict[str, str]\n        sdk: bool\n        handler: str | None\n        manifest: str | None\n        needs: tuple[str, ...]\n        condition: str | None\n\n")
	pyComment(&b, "", "Negotiation rules: "+n.Description)
	var conds []string
	for _, c := range n.Conditions {
		conds = append(conds, c.Name)
	}
	b.WriteString("\nHOST_CONDITIONS: Final = " + pyTuple(conds) + "\n\nFEATURE_RULES: Final[dict[str, FeatureRule]] = {\n")
	opt := func(s string) string {
		if s == "" {
			return "None"
		}
		return pyStr(s)
	}
	for _, f := range n.Features {
		pyComment(&b, "    ", f.Description)
		fmt.Fprintf(&b, "    %s: {\"offer\": {", pyStr(f.Name))
		for i, o := range f.Offer {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s: %s", pyStr(o.Name), pyStr(o.Text))
		}
		sdk := "False"
		if f.SDK {
			sdk = "True"
		}
		fmt.Fprintf(&b, "}, \"sdk\": %s, \"handler\": %s, \"manifest\": %s, \"needs\": %s, \"condition\": %s},\n", sdk, opt(f.Handler), opt(f.Manifest), pyTuple(f.Needs), opt(f.Condition))
	}
	b.WriteString("}\n\nSPOKEN_VERSIONS: Final = " + pyTuple(n.Versions) + "\nDISTINCT_VERSIONS: Final = {")
	for i, d := range n.Distinct {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %s", pyStr(d.Name), pyStr(d.Text))
	}
	b.WriteString("}\n# The LifecycleEvent enum in order: an answer lists its subscriptions in it.\nLIFECYCLE_EVENTS: Final = " + pyTuple(n.LifecycleEvents) + "\n\n# Negotiation messages: templates whose {placeholders} the negotiation fills in.\n")
	for _, msg := range n.Messages {
		fmt.Fprintf(&b, "MSG_%s: Final = %s\n", strings.ToUpper(msg.Name), pyStr(msg.Text))
	}
	return b.String()
}

func tsFeatures(n *ir.Negotiation) string {
	var b bytes.Buffer
	b.WriteString(header("//", fingerprint(true, n)))
	b.WriteString("// Source: schema/initialize.schema.json x-octet-features.\n")
	tsDoc(&b, "", "Negotiation rules: "+n.Description)
	b.WriteString("\nexport type FeatureOffer = \"required\" | \"optional\" | \"conditional\";\n\n")
	b.WriteString("export type HostCondition = ")
	for i, c := range n.Conditions {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(tsStr(c.Name))
	}
	b.WriteString(";\n\n/** Every host condition, in schema order. */\nexport const HOST_CONDITIONS: readonly HostCondition[] = [")
	for i, c := range n.Conditions {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tsStr(c.Name))
	}
	b.WriteString("];\n\n/** One row of the negotiation table. */\nexport interface FeatureRule {\n  readonly name: string;\n  /** API version -> how the feature is offered; a version it lacks does not have the feature. */\n  readonly offer: Readonly<Record<string, FeatureOffer>>;\n  /** The SDKs implement the feature. */\n  readonly sdk: boolean;\n  /** Handler kind an extension must have registered to accept it. */\n  readonly handler?: string;\n  /** Dotted manifest member that must be non-empty to offer or accept it. */\n  readonly manifest?: string;\n  /** Features that must be accepted alongside it. */\n  readonly needs: readonly string[];\n  /** Host condition of a conditional feature. */\n  readonly condition?: HostCondition;\n}\n\n")
	b.WriteString("/** The table, in the Feature enum's order. */\nexport const FEATURE_RULES: readonly FeatureRule[] = [\n")
	for _, f := range n.Features {
		tsDoc(&b, "  ", f.Description)
		fmt.Fprintf(&b, "  { name: %s, offer: {", tsStr(f.Name))
		for i, o := range f.Offer {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %s: %s", tsStr(o.Name), tsStr(o.Text))
		}
		if len(f.Offer) > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "}, sdk: %t", f.SDK)
		if f.Handler != "" {
			fmt.Fprintf(&b, ", handler: %s", tsStr(f.Handler))
		}
		if f.Manifest != "" {
			fmt.Fprintf(&b, ", manifest: %s", tsStr(f.Manifest))
		}
		b.WriteString(", needs: [")
		for i, x := range f.Needs {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(tsStr(x))
		}
		b.WriteString("]")
		if f.Condition != "" {
			fmt.Fprintf(&b, ", condition: %s", tsStr(f.Condition))
		}
		b.WriteString(" },\n")
	}
	b.WriteString("];\n\n/** The API versions negotiation selects, in order. */\nexport const SPOKEN_VERSIONS: readonly string[] = [")
	for i, v := range n.Versions {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tsStr(v))
	}
	b.WriteString("];\n\n/** Known versions refused with a reason of their own. */\nexport const DISTINCT_VERSIONS: Readonly<Record<string, string>> = {")
	for i, d := range n.Distinct {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s: %s", tsStr(d.Name), tsStr(d.Text))
	}
	if len(n.Distinct) > 0 {
		b.WriteString(" ")
	}
	b.WriteString("};\n\n/** The LifecycleEvent enum in order: an answer lists its subscriptions in it. */\nexport const LIFECYCLE_EVENTS: readonly string[] = [")
	for i, v := range n.LifecycleEvents {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tsStr(v))
	}
	b.WriteString("];\n\n/** Negotiation messages: templates whose {placeholders} the negotiation fills in. */\nexport const NegotiationMessage = {\n")
	for _, msg := range n.Messages {
		fmt.Fprintf(&b, "  %s: %s,\n", strings.ToUpper(msg.Name), tsStr(msg.Text))
	}
	b.WriteString("} as const;\n")
	return b.String()
}

func mdFeatures(n *ir.Negotiation, hash string) string {
	var b bytes.Buffer
	b.WriteString(mdHeader(hash) + "\n")
	b.WriteString("# Negotiation\n\nGenerated from `x-octet-features` in `schema/initialize.schema.json`; every SDK's negotiation and the host's offer and check read this table. Vectors: `schema/vectors/negotiation/`.\n\n")
	b.WriteString(oneLine(n.Description) + "\n\n")
	fmt.Fprintf(&b, "Versions spoken: %s.", strings.Join(n.Versions, ", "))
	for _, d := range n.Distinct {
		fmt.Fprintf(&b, " %s is refused: %s.", d.Name, d.Text)
	}
	b.WriteString("\n\n## Features\n\n| feature |")
	for _, v := range n.Versions {
		fmt.Fprintf(&b, " %s |", v)
	}
	b.WriteString(" the extension needs | host condition | meaning |\n|---|")
	for range n.Versions {
		b.WriteString("---|")
	}
	b.WriteString("---|---|---|\n")
	for _, f := range n.Features {
		fmt.Fprintf(&b, "| `%s` |", f.Name)
		for _, v := range n.Versions {
			cell := "—"
			for _, o := range f.Offer {
				if o.Name == v {
					cell = o.Text
				}
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		var needs []string
		if !f.SDK {
			needs = append(needs, "not implemented by the SDKs")
		}
		if f.Handler != "" {
			needs = append(needs, "a registered "+f.Handler+" handler")
		}
		if f.Manifest != "" {
			needs = append(needs, "a non-empty manifest `"+f.Manifest+"`")
		}
		for _, x := range f.Needs {
			needs = append(needs, "feature `"+x+"`")
		}
		cond := ""
		if f.Condition != "" {
			cond = "`" + f.Condition + "`"
		}
		fmt.Fprintf(&b, " %s | %s | %s |\n", strings.Join(needs, "; "), cond, oneLine(f.Description))
	}
	b.WriteString("\n## Host conditions\n\n| condition | holds when |\n|---|---|\n")
	for _, c := range n.Conditions {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.Name, oneLine(c.Text))
	}
	b.WriteString("\n## Refusal messages\n\n| name | template |\n|---|---|\n")
	for _, msg := range n.Messages {
		fmt.Fprintf(&b, "| `%s` | `%s` |\n", msg.Name, msg.Text)
	}
	return b.String()
}

// pyTuple renders a tuple of string literals.
func pyTuple(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = pyStr(x)
	}
	if len(q) == 1 {
		return "(" + q[0] + ",)"
	}
	return "(" + strings.Join(q, ", ") + ")"
}
