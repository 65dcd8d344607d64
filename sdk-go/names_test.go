package octet

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestNamePatternsMatchRegexp: each namePattern accepts exactly what its regular
// expression does, over edge cases and random strings from an alphabet that mixes
// every class's members with bytes outside them (including non-ASCII and newline).
func TestNamePatternsMatchRegexp(t *testing.T) {
	const alphabet = "azAZ09_-.fgx/ \n\x00é"
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range []namePattern{toolNamePattern, secretNamePattern, name48, sha256Pattern} {
		re := regexp.MustCompile(p.src)
		cases := []string{"", "a", "_", "-", ".", "0", strings.Repeat("a", p.max), strings.Repeat("a", p.max+1),
			strings.Repeat("0", p.min), strings.Repeat("f", 64), strings.Repeat("f", 64) + "\n", "a\n", "é"}
		for range 20000 {
			n := rng.IntN(p.max + 3)
			var b strings.Builder
			for range n {
				// Mostly in-class characters, so long matching strings occur.
				if rng.IntN(8) == 0 {
					b.WriteString(string([]rune(alphabet)[rng.IntN(len([]rune(alphabet)))]))
				} else {
					b.WriteByte("abcdef0123456789_-"[rng.IntN(18)])
				}
			}
			cases = append(cases, b.String())
		}
		for _, s := range cases {
			if got, want := p.MatchString(s), re.MatchString(s); got != want {
				t.Fatalf("%s on %q: %v, regexp says %v", p, s, got, want)
			}
		}
	}
}
