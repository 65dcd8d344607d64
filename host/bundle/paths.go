package bundle

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// windowsReserved are device names no Windows filesystem accepts as a file name, with or
// without an extension; a bundle must unpack the same everywhere.
var windowsReserved = map[string]bool{"con": true, "prn": true, "aux": true, "nul": true}

func init() {
	for _, p := range []string{"com", "lpt"} {
		for d := '0'; d <= '9'; d++ {
			windowsReserved[p+string(d)] = true
		}
	}
}

// entryPath checks an archive entry's name and returns its elements. Directory entries end
// in one "/", which is dropped; everything else must be a portable relative path.
func entryPath(name string, isDir bool) ([]string, *Error) {
	if !utf8.ValidString(name) {
		return nil, refuse(strings.ToValidUTF8(name, "\uFFFD"), RulePathEncoding, "path is not valid UTF-8; use UTF-8 file names")
	}
	if len(name) > MaxPathBytes {
		return nil, refuse(name, RulePathLength, "path is %d bytes; at most %d allowed", len(name), MaxPathBytes)
	}
	p := name
	if isDir {
		p = strings.TrimSuffix(p, "/")
	}
	switch {
	case p == "":
		return nil, refuse(name, RulePathPortable, "empty path")
	case strings.HasPrefix(p, "/"):
		return nil, refuse(name, RulePathPortable, "absolute path; every entry must be relative, under the extension's directory")
	case strings.ContainsRune(p, '\\'):
		return nil, refuse(name, RulePathPortable, "backslash in path; use \"/\" separators and no backslashes in names")
	}
	for _, r := range p {
		if r == 0 {
			return nil, refuse(strings.ReplaceAll(name, "\x00", `\x00`), RulePathPortable, "NUL byte in path")
		}
		if unicode.IsControl(r) {
			return nil, refuse(strings.Map(visible, name), RulePathPortable, "control character %U in path", r)
		}
		if strings.ContainsRune(`<>:"|?*`, r) {
			return nil, refuse(name, RulePathPortable, "character %q is not allowed in file names on every platform", r)
		}
	}
	elems := strings.Split(p, "/")
	if len(elems) > MaxPathDepth {
		return nil, refuse(name, RulePathLength, "path has %d elements; at most %d allowed", len(elems), MaxPathDepth)
	}
	for _, e := range elems {
		switch {
		case e == "":
			return nil, refuse(name, RulePathPortable, "empty path element (\"//\" or a trailing \"/\" on a file)")
		case e == "..":
			return nil, refuse(name, RulePathPortable, "\"..\" element; every entry must stay under the extension's directory")
		case e == ".":
			return nil, refuse(name, RulePathPortable, "\".\" element; build the archive from the parent directory (tar -czf NAME.tar.gz NAME)")
		case strings.HasSuffix(e, ".") || strings.HasSuffix(e, " "):
			return nil, refuse(name, RulePathPortable, "element %q ends in a dot or space, which Windows drops", e)
		case windowsReserved[strings.ToLower(strings.SplitN(e, ".", 2)[0])]:
			return nil, refuse(name, RulePathPortable, "element %q is a reserved device name on Windows", e)
		}
	}
	return elems, nil
}

// fold is the key under which two paths collide on a case-insensitive filesystem.
func fold(p string) string { return strings.ToLower(strings.ToUpper(p)) }

// visible replaces control characters so an error message can quote the path.
func visible(r rune) rune {
	if unicode.IsControl(r) {
		return '?'
	}
	return r
}
