package manifest

import (
	"path"
	"regexp"
	"strings"
)

// Session is the [session] table: whether this extension owns session policy (seed 000)
// and, for the owner, the allowed-tool patterns that form the model's catalog and the
// private tools hidden from it.
type Session struct {
	Owner        bool     `json:"owner,omitempty"`
	AllowedTools []string `json:"allowed_tools,omitempty"`
	PrivateTools []string `json:"private_tools,omitempty"`
}

// toolPatternRE is schema ToolPattern: extension/tool, each part possibly with * wildcards.
var toolPatternRE = regexp.MustCompile(`^[a-z*][a-z0-9_*-]{0,63}/[a-zA-Z_*][a-zA-Z0-9_*-]{0,63}$`)

// session validates [session]. The catalog keys belong to the owner: a non-owner that
// declared them would be asking for a power it does not hold, so it is refused rather than
// ignored.
func (v *validator) session(doc map[string]any) {
	s, ok := v.table(doc, "session", "session", false)
	if !ok {
		return
	}
	v.known(s, "session", "owner", "allowed_tools", "private_tools")
	owner, _ := v.boolean(s, "owner", "session.owner")
	for _, key := range []string{"allowed_tools", "private_tools"} {
		re := toolRE
		if key == "allowed_tools" {
			re = toolPatternRE
		}
		list, present := v.strings(s, key, "session."+key, re, true)
		if !present {
			continue
		}
		if len(list) > 256 {
			v.add("session."+key, RuleLength, "has %d entries; at most 256 allowed", len(list))
		}
		if !owner {
			v.add("session."+key, RuleSession, "only the session owner may declare %s; set owner = true", key)
		}
	}
}

// ValidToolPattern reports whether p is a ToolPattern (the operator's denied_tools use it).
func ValidToolPattern(p string) bool { return toolPatternRE.MatchString(p) }

// MatchToolPattern reports whether the qualified tool name ext/tool matches pattern (a
// ToolPattern): each part is matched on its own, `*` standing for any run of characters
// within that part, so "git-*/*" never reaches across the slash.
func MatchToolPattern(pattern, ext, tool string) bool {
	pe, pt, ok := strings.Cut(pattern, "/")
	if !ok {
		return false
	}
	return globPart(pe, ext) && globPart(pt, tool)
}

// globPart matches one part; path.Match treats only * specially here, since the pattern's
// alphabet has no ?, [ or \.
func globPart(pattern, s string) bool {
	ok, err := path.Match(pattern, s)
	return err == nil && ok
}
