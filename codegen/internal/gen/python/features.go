package python

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The negotiation table (x-octet-features) is emitted as plain data in every language; each
// SDK's hand-written negotiation (and the host's offer and check) reads only that data.

// FeaturesFile is the generated Python negotiation table.
const FeaturesFile = GenDir + "_features.py"

func pyFeatures(n *ir.Negotiation, hash string) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("#", hash))
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
