package protocol

import (
	"regexp"
	"strings"
	"testing"
)

// Every pattern compiled to a seqPattern agrees with the regexp engine on strings built from
// the characters that matter (each class's members, their neighbours, non-ASCII, newlines)
// at lengths around every quantifier bound.
func TestSeqPatternsEqualRegexp(t *testing.T) {
	if len(seqPatterns) == 0 {
		t.Fatal("no compiled patterns")
	}
	alphabet := []string{"a", "z", "A", "Z", "0", "9", "_", "-", ".", ":", "/", "+", "=", "@", " ", "\n", "\t", "é", "😀", "f", "g", "h", "t", "p", "s"}
	for _, sp := range seqPatterns {
		re := regexp.MustCompile(sp.src)
		var cands []string
		for _, a := range alphabet {
			for _, n := range []int{0, 1, 2, 47, 48, 49, 63, 64, 65} {
				cands = append(cands, strings.Repeat(a, n), "a"+strings.Repeat(a, n), "=1."+strings.Repeat(a, n)+".3")
			}
		}
		cands = append(cands, "1.2.3", "=0.8.0", "https://example.com/x", "http://x", "https://", "aGVsbG8=", "aGVsbG8===",
			strings.Repeat("ab", 32), strings.Repeat("AB", 32), "API_TOKEN", "job-1", "1.2.3-rc.1", "1.2.3\n", "=1.2.3\n")
		for _, c := range cands {
			if got, want := sp.MatchString(c), re.MatchString(c); got != want {
				t.Errorf("%s on %q: seqPattern %v, regexp %v", sp.src, c, got, want)
			}
		}
	}
}

func TestCodePointsEqualsRuneCount(t *testing.T) {
	for _, s := range []string{"", "a", "é", "😀", "aé😀日本", strings.Repeat("😀é", 100)} {
		if got, want := codePoints(s), len([]rune(s)); got != want {
			t.Errorf("codePoints(%q) = %d, want %d", s, got, want)
		}
	}
}
