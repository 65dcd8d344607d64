package golang

import (
	"fmt"
	"strconv"
	"strings"
)

// seqAtom is one element of a simple pattern: a set of ASCII bytes (or its complement) repeated
// min..max times (max -1 = unbounded).
type seqAtom struct {
	set      [128]bool
	neg      bool
	min, max int
}

// seqAtoms compiles a pattern of the form ^ (class|literal)(quantifier)? ... $? into Go source for
// []seqAtom, when greedy matching without backtracking is exact: every atom before the last
// either has a fixed count or shares no character with the atom after it, and no atom is
// negated except the last. Anything else (groups, alternation, unanchored start) is left to
// the regexp engine.
func seqAtoms(p string) (string, bool, bool) {
	if !strings.HasPrefix(p, "^") {
		return "", false, false
	}
	i := 1
	var atoms []seqAtom
	anchoredEnd := false
	for i < len(p) {
		var a seqAtom
		switch c := p[i]; {
		case c == '$' && i == len(p)-1:
			anchoredEnd = true
			i++
			continue
		case c == '[':
			j := i + 1
			if j < len(p) && p[j] == '^' {
				a.neg = true
				j++
			}
			var chars []byte
			for j < len(p) && p[j] != ']' {
				ch := p[j]
				if ch == '\\' && j+1 < len(p) {
					j++
					switch p[j] {
					case 't':
						ch = '\t'
					case 'n':
						ch = '\n'
					case 'r':
						ch = '\r'
					default:
						ch = p[j]
					}
					chars = append(chars, ch)
					j++
					continue
				}
				if j+2 < len(p) && p[j+1] == '-' && p[j+2] != ']' {
					for x := ch; x <= p[j+2]; x++ {
						chars = append(chars, x)
					}
					j += 3
					continue
				}
				chars = append(chars, ch)
				j++
			}
			if j >= len(p) {
				return "", false, false
			}
			for _, ch := range chars {
				a.set[ch] = true
			}
			i = j + 1
		case c == '\\' && i+1 < len(p) && strings.IndexByte(".-+*?()[]{}|^$/\\=", p[i+1]) >= 0:
			a.set[p[i+1]] = true
			i += 2
		case strings.IndexByte("()|.*+?{}$\\", c) >= 0:
			return "", false, false
		default:
			a.set[c] = true
			i++
		}
		a.min, a.max = 1, 1
		if i < len(p) {
			switch p[i] {
			case '?':
				a.min, a.max = 0, 1
				i++
			case '*':
				a.min, a.max = 0, -1
				i++
			case '+':
				a.min, a.max = 1, -1
				i++
			case '{':
				end := strings.IndexByte(p[i:], '}')
				if end < 0 {
					return "", false, false
				}
				lo, hi, comma := strings.Cut(p[i+1:i+end], ",")
				var err1, err2 error
				a.min, err1 = strconv.Atoi(lo)
				a.max = a.min
				if comma {
					a.max, err2 = strconv.Atoi(hi)
				}
				if err1 != nil || err2 != nil {
					return "", false, false
				}
				i += end + 1
			}
		}
		atoms = append(atoms, a)
	}
	if len(atoms) == 0 {
		return "", false, false
	}
	for k := 0; k+1 < len(atoms); k++ {
		a, next := atoms[k], atoms[k+1]
		if a.neg {
			return "", false, false
		}
		if a.min == a.max {
			continue
		}
		if next.neg {
			return "", false, false
		}
		for ch := 0; ch < 128; ch++ {
			if a.set[ch] && next.set[ch] {
				return "", false, false
			}
		}
	}
	var b strings.Builder
	b.WriteString("[]seqAtom{")
	for k, a := range atoms {
		if k > 0 {
			b.WriteString(", ")
		}
		// The class as two 64-bit masks over ASCII (bit c of lo for c < 64, bit c-64 of hi),
		// so the generated value needs no set built at package init.
		var lo, hi uint64
		for ch := 0; ch < 128; ch++ {
			if !a.set[ch] {
				continue
			}
			if ch < 64 {
				lo |= 1 << ch
			} else {
				hi |= 1 << (ch - 64)
			}
		}
		fmt.Fprintf(&b, "{lo: %#x, hi: %#x, neg: %v, min: %d, max: %d}", lo, hi, a.neg, a.min, a.max)
	}
	b.WriteString("}")
	return b.String(), anchoredEnd, true
}
