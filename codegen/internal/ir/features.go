package ir

import (
	"fmt"
	"slices"

	"github.com/octet-kit/octet/codegen/internal/ordered"
)

// FeaturesKeyword is the root keyword of the file holding the negotiation rules.
const FeaturesKeyword = "x-octet-features"

// Negotiation is the x-octet-features table: version selection, the per-feature rules and
// the refusal messages, read by every SDK's negotiation and the host's offer and check.
type Negotiation struct {
	Description string
	Versions    []string // versions spoken, in order
	Distinct    []Pair   // version -> why it is refused though known (0.3)
	Conditions  []Pair   // host condition name -> meaning
	Messages    []Pair   // message name -> template with {placeholders}
	Features    []Feature
	// LifecycleEvents is the LifecycleEvent enum, the order an answer lists subscriptions in.
	LifecycleEvents []string
}

// Pair is one name/text entry of an ordered table.
type Pair struct{ Name, Text string }

// Feature is one row of the table.
type Feature struct {
	Name        string
	Offer       []Pair // API version -> "required" | "optional" | "conditional"; absent: not in that version
	SDK         bool   // the SDKs implement it (default true)
	Handler     string // handler kind the extension must have registered to accept it
	Manifest    string // dotted manifest member that must be non-empty to accept or offer it
	Needs       []string
	Condition   string // host condition a conditional feature is offered under
	Description string
}

func (l *loader) features(v any) error {
	at := fmt.Sprintf("schema/%s#/%s", l.file.Path, FeaturesKeyword)
	if l.m.Negotiation != nil {
		return fmt.Errorf("%s: a second %s table (the first is elsewhere)", at, FeaturesKeyword)
	}
	o, ok := v.(*ordered.Object)
	if !ok {
		return fmt.Errorf("%s: want an object", at)
	}
	n := &Negotiation{}
	for _, k := range o.Keys {
		var err error
		switch k {
		case "description":
			n.Description, _ = str(o, k)
		case "versions":
			n.Versions, err = strList(o.Vals[k])
		case "distinct":
			n.Distinct, err = pairs(o.Vals[k])
		case "conditions":
			n.Conditions, err = pairs(o.Vals[k])
		case "messages":
			n.Messages, err = pairs(o.Vals[k])
		case "features":
			n.Features, err = featureRows(o.Vals[k])
		default:
			err = fmt.Errorf("unknown member")
		}
		if err != nil {
			return fmt.Errorf("%s/%s: %w", at, k, err)
		}
	}
	if err := lintNegotiation(n); err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	l.m.Negotiation = n
	return nil
}

func featureRows(v any) ([]Feature, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want an array")
	}
	var out []Feature
	for i, e := range arr {
		o, ok := e.(*ordered.Object)
		if !ok {
			return nil, fmt.Errorf("%d: want an object", i)
		}
		f := Feature{SDK: true}
		for _, k := range o.Keys {
			var err error
			switch k {
			case "name", "handler", "manifest", "condition", "description":
				s, ok := str(o, k)
				if !ok {
					err = fmt.Errorf("want a string")
				}
				switch k {
				case "name":
					f.Name = s
				case "handler":
					f.Handler = s
				case "manifest":
					f.Manifest = s
				case "condition":
					f.Condition = s
				default:
					f.Description = s
				}
			case "sdk":
				b, ok := o.Vals[k].(bool)
				if !ok {
					err = fmt.Errorf("want a boolean")
				}
				f.SDK = b
			case "offer":
				f.Offer, err = pairs(o.Vals[k])
			case "needs":
				f.Needs, err = strList(o.Vals[k])
			default:
				err = fmt.Errorf("unknown member")
			}
			if err != nil {
				return nil, fmt.Errorf("%d/%s: %w", i, k, err)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// lintNegotiation refuses a table the SDKs could not apply alike.
func lintNegotiation(n *Negotiation) error {
	names := map[string]Feature{}
	conds := map[string]bool{}
	for _, c := range n.Conditions {
		conds[c.Name] = true
	}
	for _, f := range n.Features {
		if f.Name == "" || f.Description == "" {
			return fmt.Errorf("every feature needs a name and a description")
		}
		if _, dup := names[f.Name]; dup {
			return fmt.Errorf("feature %q is listed twice", f.Name)
		}
		names[f.Name] = f
		conditional := false
		for _, o := range f.Offer {
			if !slices.Contains(n.Versions, o.Name) {
				return fmt.Errorf("feature %q: offer names version %q, which is not in versions", f.Name, o.Name)
			}
			switch o.Text {
			case "required", "optional":
			case "conditional":
				conditional = true
			default:
				return fmt.Errorf("feature %q: offer %q for %s: want required, optional or conditional", f.Name, o.Text, o.Name)
			}
		}
		if conditional != (f.Condition != "") {
			return fmt.Errorf("feature %q: a conditional offer needs a condition, and only a conditional one has it", f.Name)
		}
		if f.Condition != "" && !conds[f.Condition] {
			return fmt.Errorf("feature %q: condition %q is not in conditions", f.Name, f.Condition)
		}
		if !f.SDK && len(f.Offer) > 0 {
			return fmt.Errorf("feature %q: a feature the SDKs do not implement is never offered", f.Name)
		}
	}
	for _, f := range n.Features {
		for _, need := range f.Needs {
			if _, ok := names[need]; !ok || need == f.Name {
				return fmt.Errorf("feature %q needs %q, which is not another feature of the table", f.Name, need)
			}
		}
	}
	return nil
}

func pairs(v any) ([]Pair, error) {
	o, ok := v.(*ordered.Object)
	if !ok {
		return nil, fmt.Errorf("want an object")
	}
	out := []Pair{}
	for _, k := range o.Keys {
		s, ok := o.Vals[k].(string)
		if !ok {
			return nil, fmt.Errorf("%s: want a string", k)
		}
		out = append(out, Pair{k, s})
	}
	return out, nil
}

func strList(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want an array of strings")
	}
	out := []string{}
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("want an array of strings")
		}
		out = append(out, s)
	}
	return out, nil
}

// lintFeatureEnum checks the table names exactly the Feature enum's values, in its order.
func lintFeatureEnum(m *Model) error {
	if m.Negotiation == nil {
		return nil
	}
	n := m.Lookup("Feature")
	if n == nil || n.Type == nil {
		return fmt.Errorf("schema: %s needs a Feature enum beside it", FeaturesKeyword)
	}
	var names []string
	for _, f := range m.Negotiation.Features {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, n.Type.Enum) {
		return fmt.Errorf("schema/%s#%s: the %s rows %v must name exactly the Feature enum %v, in order", n.File.Path, n.Pointer, FeaturesKeyword, names, n.Type.Enum)
	}
	if ev := m.Lookup("LifecycleEvent"); ev != nil && ev.Type != nil {
		m.Negotiation.LifecycleEvents = ev.Type.Enum
	}
	return nil
}
