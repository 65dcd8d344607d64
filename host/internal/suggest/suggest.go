// Package suggest finds the known name a mistyped one was most likely meant to be, for the
// "did you mean" of every place a user types a name: manifest fields, verbs, flags, tool,
// check and extension names. One measure for all of them, so the same typo gets the same
// answer everywhere.
package suggest

import (
	"fmt"
	"strings"
)

// Closest returns the candidate nearest to name, or "" when none is close enough to be a
// plausible typo. Distance is the optimal-string-alignment edit distance (insertions,
// deletions, substitutions and adjacent transpositions each count 1) over lower-cased
// runes; a candidate is close when the distance is at most 1 for names up to 4 runes, 2 up
// to 8 and a third of the length beyond. Ties go to the earlier candidate, so callers list
// candidates in a meaningful order.
func Closest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	best, bestD := "", -1
	for _, c := range candidates {
		if c == name {
			return ""
		}
		d := Distance(strings.ToLower(name), strings.ToLower(c))
		if d <= limit(name) && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// Hint is "; did you mean QUOTED?" for the closest candidate, or "" when none is close.
// quote formats the candidate as the place spells names (%q, --flag, ...).
func Hint(name string, candidates []string, quote func(string) string) string {
	c := Closest(name, candidates)
	if c == "" {
		return ""
	}
	if quote == nil {
		quote = func(s string) string { return fmt.Sprintf("%q", s) }
	}
	return "; did you mean " + quote(c) + "?"
}

func limit(name string) int {
	n := len([]rune(name))
	switch {
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	}
	return n / 3
}

// Distance is the optimal-string-alignment distance between a and b, over runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows suffice: the transposition looks two rows back.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
