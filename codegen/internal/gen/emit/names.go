package emit

import (
	"sort"
	"strings"
	"unicode"
)

// initialisms keep Go names idiomatic (APIVersion, not ApiVersion).
var initialisms = map[string]string{
	"id": "ID", "api": "API", "url": "URL", "ui": "UI", "kv": "KV", "ms": "MS", "mime": "MIME",
	"json": "JSON", "sha256": "SHA256", "rpc": "RPC", "ids": "IDs",
}

// goName turns a snake_case (or dotted/slashed) wire name into an exported Go identifier.
func GoName(s string) string {
	var b strings.Builder
	for _, part := range SplitWords(s) {
		if up, ok := initialisms[strings.ToLower(part)]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// upperSnake turns a wire name into UPPER_SNAKE.
func UpperSnake(s string) string { return strings.ToUpper(strings.Join(SplitWords(s), "_")) }

// snake turns a CamelCase type name into snake_case (ToolCallParams -> tool_call_params).
func Snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func SplitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// lowerFirst is for TypeScript function names (validateX stays validateX).
func LowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

func SortStrings(s []string) { sort.Strings(s) }
