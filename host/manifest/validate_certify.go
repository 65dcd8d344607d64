package manifest

import "fmt"

// certify checks the [certify] table (schema ManifestCertify) with field-precise messages:
// each [[certify.tools]] entry names a tool once, and is either skipped with a reason
// or called with example argument tables.
func (v *validator) certify(doc map[string]any) {
	c, ok := v.table(doc, "certify", "certify", false)
	if !ok {
		return
	}
	v.known(c, "certify", "tools")
	raw, present := c["tools"]
	if !present {
		return
	}
	list, ok := raw.([]any)
	if !ok {
		v.add("certify.tools", RuleType, "must be an array of tables ([[certify.tools]]), got %s", typeName(raw))
		return
	}
	if len(list) > 256 {
		v.add("certify.tools", RuleLength, "has %d entries; at most 256 allowed", len(list))
	}
	seen := map[string]bool{}
	for i, e := range list {
		field := fmt.Sprintf("certify.tools[%d]", i)
		t, ok := e.(map[string]any)
		if !ok {
			v.add(field, RuleType, "must be a table, got %s", typeName(e))
			continue
		}
		v.known(t, field, "name", "skip", "reason", "examples")
		if name, ok := v.str(t, "name", field+".name", true); ok {
			switch {
			case !toolRE.MatchString(name):
				v.add(field+".name", RulePattern, "%q must match %s", name, toolRE.String())
			case seen[name]:
				v.add(field+".name", RuleUnique, "tool %q has a second [[certify.tools]] entry", name)
			}
			seen[name] = true
		}
		_, hasSkip := t["skip"]
		skip, _ := v.boolean(t, "skip", field+".skip")
		reason, hasReason := v.str(t, "reason", field+".reason", false)
		switch {
		case hasSkip && !skip:
			v.add(field+".skip", RuleCertify, "must be true when present; leave it out to have the tool called")
		case skip && !hasReason:
			v.add(field+".reason", RuleRequired, "is required with skip = true: say why certify must not call the tool")
		case skip && (reason == "" || len([]rune(reason)) > 1024):
			v.add(field+".reason", RuleLength, "must be 1..1024 characters, got %d", len([]rune(reason)))
		case !skip && hasReason:
			v.add(field+".reason", RuleCertify, "is only meaningful with skip = true")
		}
		if ex, present := t["examples"]; present {
			examples, ok := ex.([]any)
			switch {
			case skip:
				v.add(field+".examples", RuleCertify, "a skipped tool is never called; remove examples or skip")
			case !ok:
				v.add(field+".examples", RuleType, "must be an array of argument tables, got %s", typeName(ex))
			case len(examples) > 64:
				v.add(field+".examples", RuleLength, "has %d examples; at most 64 allowed", len(examples))
			default:
				for j, a := range examples {
					if _, ok := a.(map[string]any); !ok {
						v.add(fmt.Sprintf("%s.examples[%d]", field, j), RuleType, "must be a table of arguments, got %s", typeName(a))
					}
				}
			}
		}
	}
}
