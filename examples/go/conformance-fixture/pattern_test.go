package main

import "testing"

// TestPattern: the doubling build yields byte(i % 251) exactly, at every length
// around the period and its doublings.
func TestPattern(t *testing.T) {
	for _, n := range []int{0, 1, 250, 251, 252, 502, 503, 1000, 4016, 4017, 1<<20 + 3} {
		got := pattern(n)
		if len(got) != n {
			t.Fatalf("pattern(%d) has %d bytes", n, len(got))
		}
		for i, b := range got {
			if b != byte(i%patternPeriod) {
				t.Fatalf("pattern(%d)[%d] = %d, want %d", n, i, b, i%patternPeriod)
			}
		}
	}
}
