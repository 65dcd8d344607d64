package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Derived encodings: the forms a secret takes when an extension re-encodes
// it on purpose or by habit (a URL query, an Authorization header, a hex
// dump, an HTML page, a JSON writer escaping everything). Each is a needle of
// the same matcher as the JSON forms, so every sink the redactor already
// covers covers these too, with no second pass.
//
//   - percent-encoding as the common writers produce it: every byte but the
//     RFC 3986 unreserved ones (Python quote(safe=""), Go QueryEscape), plus
//     the sets JavaScript's encodeURIComponent and encodeURI, Python's
//     quote (safe "/") and Go's PathEscape leave alone, and every byte
//     escaped; each with upper- and lower-case hex, space as %20 and as +.
//   - base64, standard and URL-safe alphabets, with and without padding, and
//     the secret at each of the three byte alignments inside a longer base64
//     stream (see base64Cores).
//   - hex, lower and upper case.
//   - HTML character references: the named escapes of Go's html.EscapeString
//     and Python's html.escape (and &quot;/&apos; variants), and every
//     character as a decimal or hex reference.
//   - JSON with every character as \uXXXX (lower and upper hex, astral
//     characters as surrogate pairs).
//
// A derived needle shorter than minDerived bytes is not used: base64 of a
// two-byte secret at an offset is two or three letters, found by chance in
// any text. The raw secret is always a needle, whatever its length.
const minDerived = 6

// derived returns s in every derived form above (duplicates included).
func derived(s string) []string {
	var out []string
	add := func(v string) {
		if len(v) >= minDerived && v != s {
			out = append(out, v)
		}
	}
	for _, keep := range percentKeep {
		for _, upper := range []bool{true, false} {
			for _, plus := range []bool{false, true} {
				add(percentEncode(s, keep, upper, plus))
			}
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		add(enc.EncodeToString([]byte(s)))
		for _, core := range base64Cores(s, enc.WithPadding(base64.NoPadding)) {
			add(core)
		}
	}
	h := hex.EncodeToString([]byte(s))
	add(h)
	add(strings.ToUpper(h))
	for _, v := range htmlForms(s) {
		add(v)
	}
	if utf8.ValidString(s) {
		add(allUnicodeEscapes(s, "\\u%04x"))
		add(allUnicodeEscapes(s, "\\u%04X"))
	}
	return out
}

// unreserved is RFC 3986's unreserved set, which no percent-encoder escapes.
const unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

// percentKeep are the byte sets left unescaped by the writers named above;
// the empty set is "every byte escaped".
var percentKeep = []string{
	unreserved,                      // Python quote(safe=""), quote_plus, Go QueryEscape
	unreserved + "/",                // Python quote() default
	unreserved + "!'()*",            // JavaScript encodeURIComponent
	unreserved + "!#$&'()*+,/:;=?@", // JavaScript encodeURI
	unreserved + "$&+:=@",           // Go url.PathEscape
	unreserved + "$&+,/:;=@",        // Go url.URL's path
	"",                              // every byte
}

func percentEncode(s, keep string, upper, plus bool) string {
	digits := "0123456789abcdef"
	if upper {
		digits = "0123456789ABCDEF"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' && plus:
			b.WriteByte('+')
		case keep != "" && strings.IndexByte(keep, c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		}
	}
	return b.String()
}

// base64Cores returns, for each of the three byte alignments the secret can
// have inside a longer base64 stream (0, 1 or 2 bytes after a 3-byte group
// boundary), the run of base64 characters whose six bits all come from the
// secret. Those characters are the same whatever bytes surround the secret;
// the one or two characters at each end that mix in a neighbour's bits
// cannot be predicted and stay visible (they carry at most 4 bits each of
// the secret). enc must be unpadded.
func base64Cores(s string, enc *base64.Encoding) []string {
	var out []string
	n := len(s)
	for a := range 3 {
		buf := make([]byte, a+n)
		copy(buf[a:], s)
		full := enc.EncodeToString(buf)
		// Character i covers bits [6i, 6i+6) of buf; the secret is bits [8a, 8(a+n)).
		first := (8*a + 5) / 6
		last := (8*(a+n))/6 - 1 // the last character ending within the secret
		if last < first || last >= len(full) {
			continue
		}
		out = append(out, full[first:last+1])
	}
	return out
}

// htmlForms are the HTML character-reference forms of s.
func htmlForms(s string) []string {
	if !utf8.ValidString(s) {
		return nil
	}
	var out []string
	for _, quot := range []string{"&quot;", "&#34;", "&#x22;"} {
		for _, apos := range []string{"&#39;", "&#x27;", "&apos;"} {
			r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, quot, "'", apos)
			out = append(out, r.Replace(s))
		}
	}
	for _, format := range []string{"&#%d;", "&#x%x;", "&#x%X;", "&#X%X;"} {
		var b strings.Builder
		for _, r := range s {
			fmt.Fprintf(&b, format, r)
		}
		out = append(out, b.String())
	}
	return out
}

// allUnicodeEscapes writes every character of s as a \u escape in format,
// astral characters as a UTF-16 surrogate pair.
func allUnicodeEscapes(s, format string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xffff {
			r -= 0x10000
			fmt.Fprintf(&b, format, 0xd800+(r>>10)&0x3ff)
			fmt.Fprintf(&b, format, 0xdc00+r&0x3ff)
			continue
		}
		fmt.Fprintf(&b, format, r)
	}
	return b.String()
}
