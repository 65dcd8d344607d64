package main

// patternPeriod: the publish tool's bytes are byte(i % patternPeriod), as in the
// Python and TypeScript fixtures (docs/design/fixture.md).
const patternPeriod = 251

// pattern builds n bytes of byte(i % 251): one period written out, then the filled
// prefix doubled with copy until n bytes are filled. The filled length stays a
// multiple of the period, so every byte equals the per-byte loop's, built at memmove
// speed instead of one division per byte (about 20-50 ms for 16 MiB here, part of
// the artifact scenario's measured time).
func pattern(n int) []byte {
	data := make([]byte, n)
	first := min(n, patternPeriod)
	for i := range first {
		data[i] = byte(i)
	}
	for filled := first; filled < n; filled *= 2 {
		copy(data[filled:], data[:filled])
	}
	return data
}
