package strictjson

import "bytes"

// NestingOffset is the byte offset of the first array or object in line opened deeper
// than MaxDepth, or -1. Run before a decoder, it refuses a hostile document before
// anything recurses or allocates once per level; strings are jumped over whole (a bracket
// inside one does not nest). It only counts: malformed JSON is the decoder's to judge. A
// line shorter than the bound cannot nest past it and skips the scan.
func NestingOffset(line []byte) int {
	if len(line) <= MaxDepth {
		return -1
	}
	depth := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			i = closingQuote(line, i+1)
		case '{', '[':
			if depth++; depth > MaxDepth {
				return i
			}
		case '}', ']':
			depth--
		}
	}
	return -1
}

// closingQuote is the index of the quote closing a string whose text starts at from (the
// first quote not escaped by an odd run of backslashes), or len(b) when there is none.
func closingQuote(b []byte, from int) int {
	for {
		q := bytes.IndexByte(b[from:], '"')
		if q < 0 {
			return len(b)
		}
		q += from
		n := 0
		for j := q - 1; j >= 0 && b[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		from = q + 1
	}
}
