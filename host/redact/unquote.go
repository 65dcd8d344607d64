package redact

import (
	"unicode/utf16"
	"unicode/utf8"
)

// nextString finds the next JSON string literal in b at or after from: the
// index of its opening and closing quote and whether it has an escape; ok is
// false when there is none (or it is unterminated). It trusts nothing: on
// text that is not JSON it still stays in bounds.
func nextString(b []byte, from int) (start, end int, escaped, ok bool) {
	for i := from; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				escaped = true
				j++
			case '"':
				return i, j, escaped, true
			}
		}
		return 0, 0, false, false
	}
	return 0, 0, false, false
}

// unquote appends the decoded content of the string literal lit (quotes
// included) to dst. It decodes what JSON allows; anything malformed is kept
// as written (the caller validates the frame before it rewrites anything).
// Lone surrogates and invalid UTF-8 become U+FFFD, as encoding/json decodes
// them.
func unquote(dst, lit []byte) []byte {
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size - 1
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			dst = append(dst, c)
			continue
		}
		i++
		switch s[i] {
		case '"', '\\', '/':
			dst = append(dst, s[i])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(s, i+1)
			if !ok {
				dst = append(dst, '\\', 'u')
				continue
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					if r2, ok := hex4(s, i+3); ok {
						if p := utf16.DecodeRune(r, r2); p != utf8.RuneError {
							dst = utf8.AppendRune(dst, p)
							i += 6
							continue
						}
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
		default:
			dst = append(dst, '\\', s[i])
		}
	}
	return dst
}

func hex4(s []byte, at int) (rune, bool) {
	if at+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
