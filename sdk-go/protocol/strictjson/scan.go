package strictjson

// The byte scanner of already-validated JSON: where a value, a string or whitespace ends,
// without decoding anything. The transport splits envelopes with it (jsonrpc) and the SDK
// finds a member's raw bytes with it (the tool/call arguments), so the whole kit has one
// copy of these rules, beside the strict parser that validated the bytes first.

// SkipSpace returns the index of the first non-whitespace byte of data at or after i.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// StringEnd returns the index just past the JSON string whose opening quote is data[i],
// or len(data) when it is not terminated.
func StringEnd(data []byte, i int) int {
	// A byte loop, not closingQuote's IndexByte: the wire's keys and most values are a few
	// bytes long, where the call costs more than it saves (BenchmarkSplitObject).
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// ValueEnd returns the index just past the JSON value starting at data[i] (len(data) when
// it runs to the end).
func ValueEnd(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return StringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = StringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' &&
		data[j] != ' ' && data[j] != '\t' && data[j] != '\r' && data[j] != '\n' {
		j++
	}
	return j
}
