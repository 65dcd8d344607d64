package protocol

import (
	"regexp"
	"sync"
	"unicode/utf8"
)

// seqAtom is one element of a compiled simple pattern: a set of ASCII characters (or, when neg,
// any character outside it) repeated min..max times (max -1: unbounded). The set is two
// bitmasks, bit c of lo for c < 64 and bit c-64 of hi, computed by octet-codegen so that a
// generated pattern is a static value: nothing is built at package init (issue 17).
type seqAtom struct {
	lo, hi   uint64
	neg      bool
	min, max int
}

// has reports whether the ASCII byte c is in the atom's set.
func (a *seqAtom) has(c byte) bool {
	if c < 64 {
		return a.lo&(1<<c) != 0
	}
	return a.hi&(1<<(c-64)) != 0
}

// seqPattern matches the patterns octet-codegen can express as a fixed sequence of character
// classes, anchored at the start, greedily and without backtracking (codegen only emits one
// when that is exact). It exists because the regexp engine dominated validation time.
type seqPattern struct {
	src         string
	atoms       []seqAtom
	anchoredEnd bool
}

// MatchString reports whether s matches (same contract as regexp.Regexp.MatchString).
func (p *seqPattern) MatchString(s string) bool {
	i := 0
	for k := range p.atoms {
		a := &p.atoms[k]
		n := 0
		for a.max < 0 || n < a.max {
			if i >= len(s) {
				break
			}
			c := s[i]
			if c < utf8.RuneSelf {
				if a.has(c) == a.neg {
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

// lazyRegexp is a schema pattern that needs the regexp engine, compiled on its first match
// rather than at package init (issue 17: a start compiled them whether or not a message
// used them). octet-codegen's lint compiled every schema pattern with Go's regexp, so
// MustCompile here cannot panic.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// MatchString reports whether s contains a match (regexp.Regexp.MatchString).
func (l *lazyRegexp) MatchString(s string) bool {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re.MatchString(s)
}
