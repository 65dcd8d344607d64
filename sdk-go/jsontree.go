package octet

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// marshalTree encodes a JSON document held as Go values (a tool's schema: maps,
// slices, strings, numbers, booleans; the initialize answer, whose members are also
// generated protocol types) to exactly the bytes json.Marshal writes for it. encoding/json walks a map[string]any by reflection, allocating for every key
// and value it visits; a start encodes every tool's schema (issue 17: most of the
// conformance fixture's start), so the kinds a schema document is made of are
// written here directly and anything else goes to json.Marshal, value by value.
// TestMarshalTreeEqualsJSONMarshal holds the two to the same bytes.
func marshalTree(v any) ([]byte, error) { return appendTree(nil, v) }

func appendTree(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return appendJSONString(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case float64:
		// Integral values as encoding/json writes them ('f', shortest); -0 and the
		// rest (fractions, exponents, NaN's error) are its own.
		if x == math.Trunc(x) && math.Abs(x) < 1e15 && (x != 0 || !math.Signbit(x)) {
			return strconv.AppendInt(dst, int64(x), 10), nil
		}
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // encoding/json sorts map keys bytewise
		dst = append(dst, '{')
		var err error
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(appendJSONString(dst, k), ':')
			if dst, err = appendTree(dst, x[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		var err error
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendTree(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case []protocol.ToolDefinition:
		return appendEach(dst, x)
	case []protocol.CommandDefinition:
		return appendEach(dst, x)
	case protocol.ProtocolAnswer:
		return x.AppendJSON(dst)
	case []string:
		if x == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, s := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, s)
		}
		return append(dst, ']'), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, raw...), nil
}

// appendJSONString writes s as encoding/json does (HTML-safe): printable ASCII other
// than the quote, the backslash, <, > and & as is; \b \f \n \r \t and \" \\ short;
// other control bytes and <, >, & as \u00XX; invalid UTF-8 as \ufffd; U+2028 and U+2029
// escaped; any other character as is.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		} else if r == '\u2028' || r == '\u2029' {
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xF])
		} else {
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

// appendEach writes a slice of generated protocol types as a JSON array through their
// AppendJSON, which writes json.Marshal's bytes (protocol's TestAppendJSONMatchesMarshal);
// json.Marshal itself would encode each element by reflection and compact it twice.
func appendEach[T any, P interface {
	*T
	AppendJSON([]byte) ([]byte, error)
}](dst []byte, xs []T) ([]byte, error) {
	if xs == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '[')
	var err error
	for i := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = P(&xs[i]).AppendJSON(dst); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}
