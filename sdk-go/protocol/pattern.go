package protocol

import "unicode/utf8"

// seqAtom is one element of a compiled simple pattern: a set of ASCII characters (or, when neg,
// any character outside it) repeated min..max times (max -1: unbounded).
type seqAtom struct {
	chars    string
	neg      bool
	min, max int
}

// seqPattern matches the patterns octet-codegen can express as a fixed sequence of character
// classes, anchored at the start, greedily and without backtracking (codegen only emits one
// when that is exact). It exists because the regexp engine dominated validation time.
type seqPattern struct {
	src         string
	atoms       []seqAtom
	sets        [][128]bool
	anchoredEnd bool
}

// seqPatterns lists every compiled pattern, for the test that compares them with regexp.
var seqPatterns []*seqPattern

func newSeqPattern(src string, atoms []seqAtom, anchoredEnd bool) *seqPattern {
	p := &seqPattern{src: src, atoms: atoms, anchoredEnd: anchoredEnd, sets: make([][128]bool, len(atoms))}
	for i, a := range atoms {
		for j := 0; j < len(a.chars); j++ {
			p.sets[i][a.chars[j]] = true
		}
	}
	seqPatterns = append(seqPatterns, p)
	return p
}

// MatchString reports whether s matches (same contract as regexp.Regexp.MatchString).
func (p *seqPattern) MatchString(s string) bool {
	i := 0
	for k, a := range p.atoms {
		set := &p.sets[k]
		n := 0
		for a.max < 0 || n < a.max {
			if i >= len(s) {
				break
			}
			c := s[i]
			if c < utf8.RuneSelf {
				if set[c] == a.neg {
					break
				}
				i++
			} else {
				if !a.neg {
					break
				}
				_, size := utf8.DecodeRuneInString(s[i:])
				i += size
			}
			n++
		}
		if n < a.min {
			return false
		}
	}
	return !p.anchoredEnd || i == len(s)
}
