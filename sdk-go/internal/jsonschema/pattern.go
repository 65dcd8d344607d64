package jsonschema

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// The portable pattern dialect (docs/python.md#patterns): a `pattern` or
// `patternProperties` key must mean the same in RE2, Python re and ECMAScript
// (u flag), so all three SDKs accept and refuse the same schemas. Go's RE2
// already has the meaning the dialect fixes (\d \w \s \b ASCII, . not \n, $
// the end of the text); what is left here is refusing what RE2 accepts but the
// others cannot mean alike. The same rules as sdk-python's _jsonschema/_regex.py.

// PortableRegexp compiles a pattern of the portable dialect: the dialect check, then RE2.
func PortableRegexp(s string) (*regexp.Regexp, error) {
	if err := checkPortable(s); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %s: %s", QuoteString(s), strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

// longCategories are the long general category names all three engines know
// (a slice, not a map: a map literal is built at every start).
var longCategories = [...]string{
	"Letter", "Uppercase_Letter", "Lowercase_Letter", "Titlecase_Letter", "Modifier_Letter",
	"Other_Letter", "Mark", "Nonspacing_Mark", "Spacing_Mark", "Enclosing_Mark", "Number",
	"Decimal_Number", "Letter_Number", "Other_Number", "Punctuation", "Symbol", "Separator",
	"Space_Separator", "Other", "Control",
}

// repeatSyntax matches a counted repetition ({n}, {n,}, {n,m}); compiled once,
// on the first pattern, never at start.
var repeatSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\{(\d+)(,(\d*))?\}`) })

func checkPortable(src string) error {
	fail := func(i int, why string) error {
		return fmt.Errorf("invalid regular expression %q: %s (at offset %d); patterns must be portable across RE2, Python and ECMAScript", src, why, i)
	}
	repeat := repeatSyntax()
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\\':
			next, err := portableEscape(src, i, false, fail)
			if err != nil {
				return err
			}
			i = next
			continue
		case c == '[':
			next, err := portableClass(src, i, fail)
			if err != nil {
				return err
			}
			i = next
			continue
		case c == '(':
			if strings.HasPrefix(src[i:], "(?") {
				if !strings.HasPrefix(src[i:], "(?:") {
					return fail(i, "only (?: groups are portable")
				}
				i += 3
				continue
			}
		case c == '*' || c == '+' || c == '?':
			if i+1 < n && src[i+1] == '?' {
				i++
			}
			if i+1 < n && strings.IndexByte("*+?{", src[i+1]) >= 0 {
				return fail(i, "a repetition of a repetition")
			}
		case c == '{':
			m := repeat.FindStringSubmatch(src[i:])
			if m == nil {
				return fail(i, "a literal { must be escaped")
			}
			i += len(m[0])
			if i < n && src[i] == '?' {
				i++
			}
			if i < n && strings.IndexByte("*+?{", src[i]) >= 0 {
				return fail(i, "a repetition of a repetition")
			}
			continue // counts and order are RE2's own errors, worded by regexp
		case c == '}' || c == ']':
			return fail(i, fmt.Sprintf("a literal %c must be escaped", c))
		}
		i++
	}
	return nil
}

func portableEscape(src string, i int, inClass bool, fail func(int, string) error) (int, error) {
	if i+1 >= len(src) {
		return 0, fail(i, "a trailing backslash")
	}
	c := src[i+1]
	switch {
	case strings.IndexByte("dws", c) >= 0:
		return i + 2, nil
	case strings.IndexByte("DWSbB", c) >= 0:
		if inClass {
			return 0, fail(i, fmt.Sprintf(`\%c inside a class`, c))
		}
		return i + 2, nil
	case strings.IndexByte("tnrfv", c) >= 0:
		return i + 2, nil
	case c == 'x':
		if i+4 > len(src) || !isHex(src[i+2]) || !isHex(src[i+3]) {
			return 0, fail(i, `\x takes exactly two hex digits`)
		}
		return i + 4, nil
	case c == 'p' || c == 'P':
		var name string
		after := i + 3
		if strings.HasPrefix(src[i+2:], "{") {
			end := strings.IndexByte(src[i+3:], '}')
			if end < 0 {
				return 0, fail(i, `an unclosed \p{`)
			}
			name, after = src[i+3:i+3+end], i+3+end+1
		} else if i+2 < len(src) {
			name = src[i+2 : i+3]
		}
		if c == 'P' && inClass {
			return 0, fail(i, `\P inside a class`)
		}
		if !slices.Contains(longCategories[:], name) && !isCategory(name) {
			return 0, fail(i, fmt.Sprintf(`\p{%s} is not a Unicode general category`, name))
		}
		return after, nil
	case c < 0x80 && !isAlnum(c):
		return i + 2, nil
	}
	return 0, fail(i, fmt.Sprintf(`the escape \%c is not portable`, c))
}

func portableClass(src string, i int, fail func(int, string) error) (int, error) {
	i++
	if strings.HasPrefix(src[i:], "^") {
		i++
	}
	if strings.HasPrefix(src[i:], "]") {
		return 0, fail(i, "an empty class or a leading ] in a class")
	}
	for {
		if i >= len(src) {
			return 0, fail(i, "an unclosed class")
		}
		switch {
		case src[i] == ']':
			return i + 1, nil
		case src[i] == '\\':
			next, err := portableEscape(src, i, true, fail)
			if err != nil {
				return 0, err
			}
			i = next
		case strings.HasPrefix(src[i:], "[:"):
			return 0, fail(i, "POSIX classes are not portable")
		default:
			i++
		}
	}
}

// isCategory: a one- or two-letter Unicode general category (L, Lu, ...).
func isCategory(name string) bool {
	if len(name) == 1 {
		return strings.Contains("LMNPSZC", name)
	}
	_, ok := unicode.Categories[name]
	return len(name) == 2 && ok
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
