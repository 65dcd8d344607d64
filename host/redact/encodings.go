package redact

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The forms a secret takes inside a JSON string, as the writers an extension
// is likely to use produce them. Free text (a stderr line with a logged JSON
// object, an error message quoting a frame) is matched against all of them;
// decoded JSON strings too, which also catches JSON nested in a string.
//
//   - Go encoding/json: `"` `\` as \" \\, \b \f \n \r \t, other controls
//     \u00xx; with HTML escaping (the default) also < > & as \u003c \u003e
//     \u0026; always U+2028 and U+2029 as \u2028 \u2029.
//   - Python json.dumps: the short escapes as Go, other controls \u00xx;
//     ensure_ascii=True (the default) writes every non-ASCII character as
//     \uxxxx, astral ones as a surrogate pair; ensure_ascii=False keeps them.
//   - JavaScript JSON.stringify: as Python with ensure_ascii=False.
//   - Variants seen elsewhere: upper-case hex digits (Java, C#), `/` as \/
//     (PHP, some C libraries).
//
// Free text also quotes strings outside JSON: Go's %q (strconv.Quote, also
// the host's own error messages quoting a bad parameter) and Python's repr
// (an extension logging a dict or an exception) write \x01 where JSON writes
// \u0001; those forms are added too.
type style struct {
	html      bool // escape < > & (Go's default)
	lineSep   bool // escape U+2028 and U+2029 (Go)
	ascii     bool // escape every non-ASCII rune (Python ensure_ascii=True)
	upperHex  bool // \u00AB rather than \u00ab
	slash     bool // escape / as \/
	shortCtrl bool // \b \f as short escapes (every writer above; kept as a knob for the \u0008 form)
}

// encodings returns s in every form above and every derived form of
// derived.go (duplicates included; the matcher deduplicates). The first is
// the raw value.
func encodings(s string) []string {
	out := append([]string{s}, derived(s)...)
	if !utf8.ValidString(s) {
		// The host hands out only UTF-8 (the script and secrets files are
		// TOML); a Go encoder would write U+FFFD, which matches nothing useful.
		return out
	}
	goDefault, _ := json.Marshal(s)
	out = append(out, string(goDefault[1:len(goDefault)-1]))
	for _, html := range []bool{false, true} {
		for _, ascii := range []bool{false, true} {
			for _, upper := range []bool{false, true} {
				for _, slash := range []bool{false, true} {
					for _, short := range []bool{false, true} {
						st := style{html: html, lineSep: html, ascii: ascii, upperHex: upper, slash: slash, shortCtrl: short}
						out = append(out, st.escape(s))
					}
				}
			}
		}
	}
	for _, q := range []string{strconv.Quote(s), strconv.QuoteToASCII(s)} {
		out = append(out, q[1:len(q)-1])
	}
	return append(out, pyRepr(s, '\''), pyRepr(s, '"'))
}

// pyRepr is the inside of Python's repr(s) quoted with quote: backslash and
// the quote escaped, \t \n \r, other non-printable characters as \xNN,
// \uNNNN or \UNNNNNNNN; printable ones (é, emoji, combining marks) as they are.
func pyRepr(s string, quote rune) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == quote:
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == ' ' || (r >= 0x20 && r < 0x7f) || (r > 0x7f && unicode.IsPrint(r)):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

func (st style) escape(s string) string {
	var b strings.Builder
	u := func(r rune) {
		if st.upperHex {
			fmt.Fprintf(&b, `\u%04X`, r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b' && st.shortCtrl:
			b.WriteString(`\b`)
		case r == '\f' && st.shortCtrl:
			b.WriteString(`\f`)
		case r < 0x20:
			u(r)
		case r == '/' && st.slash:
			b.WriteString(`\/`)
		case st.html && (r == '<' || r == '>' || r == '&'):
			u(r)
		case st.lineSep && (r == '\u2028' || r == '\u2029'):
			u(r)
		case st.ascii && r > 0x7e && r <= 0xffff:
			// Python escapes DEL (0x7f) too: it is not ASCII-printable.
			u(r)
		case st.ascii && r > 0xffff:
			r -= 0x10000
			u(0xd800 + (r>>10)&0x3ff)
			u(0xdc00 + r&0x3ff)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
