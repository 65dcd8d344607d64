package services

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// chars counts code points (wire "chars" limits).
func chars(s string) int { return utf8.RuneCountInString(s) }

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// hasControl reports C0/C1 control characters other than tab and newline:
// presentation and notification text is plain text, never terminal escapes
// (a rule of the host's console the schema does not state).
func hasControl(s string, allowNewlines bool) bool {
	for _, r := range s {
		if r == '\t' || (allowNewlines && (r == '\n' || r == '\r')) {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}

// deref is *p, or "" for an absent optional string.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// optional is s as an optional wire string: absent when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
