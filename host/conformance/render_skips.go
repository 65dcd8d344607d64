package conformance

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteSkipped folds skipped checks into one line: how many, and each distinct reason
// with its count, most frequent first. A first certify of an author's own extension skips
// dozens of fixture-only checks; one line keeps the checks that ran readable (certify -v
// prints every skipped check's own line instead).
func WriteSkipped(w io.Writer, skipped []Result) {
	if len(skipped) == 0 {
		return
	}
	count := map[string]int{}
	for _, x := range skipped {
		count[oneLine(x.Detail, 110)]++
	}
	reasons := make([]string, 0, len(count))
	for r := range count {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if count[reasons[i]] != count[reasons[j]] {
			return count[reasons[i]] > count[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%d %s", count[r], r)
	}
	noun := "checks"
	if len(skipped) == 1 {
		noun = "check"
	}
	fmt.Fprintf(w, "  SKIP  %d %s: %s (-v lists them)\n", len(skipped), noun, strings.Join(parts, "; "))
}
