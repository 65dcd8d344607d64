package typescript

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The negotiation table (x-octet-features) is emitted as plain data in every language; each
// SDK's hand-written negotiation (and the host's offer and check) reads only that data.

func tsFeatures(n *ir.Negotiation) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, n)))
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
