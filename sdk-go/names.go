package octet

// namePattern matches the SDK's name and digest rules: an optional class for the
// first byte, one class for the rest, and a length range, all ASCII. They used to be
// regexp.MustCompile package variables, and compiling the bounded repetitions
// ({0,63}) cost about 0.3 ms of every start before main ran; these match the same
// strings (TestNamePatternsMatchRegexp) with a loop. src is the equivalent regular
// expression, kept for error messages.
type namePattern struct {
	src      string
	first    func(byte) bool // nil: the first byte is in rest's class
	rest     func(byte) bool
	min, max int
}

func (p namePattern) MatchString(s string) bool {
	if len(s) < p.min || len(s) > p.max {
		return false
	}
	for i := 0; i < len(s); i++ {
		in := p.rest
		if i == 0 && p.first != nil {
			in = p.first
		}
		if !in(s[i]) {
			return false
		}
	}
	return true
}

func (p namePattern) String() string { return p.src }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

var (
	toolNamePattern = namePattern{src: `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`, min: 1, max: 64,
		first: func(c byte) bool { return isLetter(c) || c == '_' },
		rest:  func(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '-' }}
	secretNamePattern = namePattern{src: `^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`, min: 1, max: 64,
		first: func(c byte) bool { return isLetter(c) || c == '_' },
		rest:  func(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '.' || c == '-' }}
	name48 = namePattern{src: `^[a-z0-9_-]{1,48}$`, min: 1, max: 48,
		rest: func(c byte) bool { return 'a' <= c && c <= 'z' || isDigit(c) || c == '_' || c == '-' }}
	sha256Pattern = namePattern{src: `^[0-9a-f]{64}$`, min: 64, max: 64,
		rest: func(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' }}
	approvalTokenPattern = sha256Pattern
)
