package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The negotiation table (x-octet-features) is emitted as plain data in every language; each
// SDK's hand-written negotiation (and the host's offer and check) reads only that data.

func mdFeatures(n *ir.Negotiation, hash string) string {
	var b bytes.Buffer
	b.WriteString(emit.MDHeader(hash) + "\n")
	b.WriteString("# Negotiation\n\nGenerated from `x-octet-features` in `schema/initialize.schema.json`; every SDK's negotiation and the host's offer and check read this table. Vectors: `schema/vectors/negotiation/`.\n\n")
	b.WriteString(emit.OneLine(n.Description) + "\n\n")
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
		fmt.Fprintf(&b, " %s | %s | %s |\n", strings.Join(needs, "; "), cond, emit.OneLine(f.Description))
	}
	b.WriteString("\n## Host conditions\n\n| condition | holds when |\n|---|---|\n")
	for _, c := range n.Conditions {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.Name, emit.OneLine(c.Text))
	}
	b.WriteString("\n## Refusal messages\n\n| name | template |\n|---|---|\n")
	for _, msg := range n.Messages {
		fmt.Fprintf(&b, "| `%s` | `%s` |\n", msg.Name, msg.Text)
	}
	return b.String()
}
