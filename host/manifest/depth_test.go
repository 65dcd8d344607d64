package manifest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/hostile"
	"github.com/octet-kit/octet/host/internal/memcap"
	"github.com/octet-kit/octet/host/manifest"
)

// parseDiag parses a manifest and returns its first syntax diagnostic, or "" when the
// manifest's nesting was not what refused it.
func parseDiag(data []byte) string {
	_, diags := manifest.Parse(data, "/x/extension.toml", manifest.Options{OctetVersion: "0.8.0"})
	for _, d := range diags {
		if d.Rule == manifest.RuleSyntax {
			return d.String()
		}
	}
	return ""
}

// Each shape of TOML nesting: at MAX_JSON_DEPTH it is not refused for its nesting; one level
// past it is, with a message naming the file, line and column.
func TestManifestNestingBound(t *testing.T) {
	shapes := map[string]func(int) []byte{
		"arrays": hostile.TOMLArrays, "inline_tables": hostile.TOMLInlineTables,
		"dotted_keys": hostile.TOMLDottedKeys, "table_header": hostile.TOMLTableHeader,
	}
	for name, gen := range shapes {
		t.Run(name, func(t *testing.T) {
			if d := parseDiag(gen(manifest.MaxDepth)); strings.Contains(d, "nesting") {
				t.Fatalf("at the bound (%d levels) it was refused for nesting: %s", manifest.MaxDepth, d)
			}
			d := parseDiag(gen(manifest.MaxDepth + 1))
			if !strings.Contains(d, "/x/extension.toml: line ") || !strings.Contains(d, ": nesting deeper than 128 levels (MAX_JSON_DEPTH)") {
				t.Fatalf("one level past the bound: got %q, want the file, line and column and the nesting bound", d)
			}
		})
	}
}

// A manifest nested 20,000 and 100,000 deep (both under the 256 KiB cap) is refused within
// 64 MiB, measured in a child process whose address space is capped (issue 19: 20,000 deep
// took 652 MB, 100,000 deep passed 24 GB).
func TestDeepManifestMemoryBounded(t *testing.T) {
	for _, levels := range []int{20_000, 100_000} {
		t.Run(strconv.Itoa(levels), func(t *testing.T) {
			data := hostile.TOMLArrays(levels)
			if len(data) > manifest.MaxManifestBytes {
				t.Fatalf("the hostile manifest is %d bytes, over the cap it must fit", len(data))
			}
			m := memcap.Run(t, 64<<20, func() string { return parseDiag(data) })
			t.Logf("%d levels: allocated %d KiB, peak RSS %d MiB: %s", levels, m.AllocBytes>>10, m.PeakRSS>>20, m.Result)
			if !strings.Contains(m.Result, "nesting deeper than 128 levels") {
				t.Fatalf("refusal %q does not name the nesting bound", m.Result)
			}
		})
	}
}
