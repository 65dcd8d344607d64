package jsonschema

import (
	"net/url"
	"strings"
)

// RFC 3986 reference resolution for any scheme (urn: and tag: included, which
// net/url's ResolveReference treats as opaque), the same rules as
// sdk-python's _jsonschema/_refs.py.

type uriRef struct {
	scheme, authority, path, query, fragment string
	hasAuthority, hasQuery                   bool
}

// splitURI is RFC 3986 appendix B's split, by hand: a package-level regexp
// would be compiled at every start.
func splitURI(s string) uriRef {
	var u uriRef
	if i := strings.IndexAny(s, ":/?#"); i > 0 && s[i] == ':' {
		u.scheme, s = s[:i], s[i+1:]
	}
	if rest, ok := strings.CutPrefix(s, "//"); ok {
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		u.authority, u.hasAuthority, s = rest[:end], true, rest[end:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s, u.fragment = s[:i], s[i+1:]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s, u.query, u.hasQuery = s[:i], s[i+1:], true
	}
	u.path = s
	return u
}

func (u uriRef) String() string {
	var b strings.Builder
	if u.scheme != "" {
		b.WriteString(u.scheme + ":")
	}
	if u.hasAuthority {
		b.WriteString("//" + u.authority)
	}
	b.WriteString(u.path)
	if u.query != "" {
		b.WriteString("?" + u.query)
	}
	if u.fragment != "" {
		b.WriteString("#" + u.fragment)
	}
	return b.String()
}

// hasScheme: ref starts with an RFC 3986 scheme ([A-Za-z][A-Za-z0-9+.-]*:).
func hasScheme(ref string) bool {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '.' || c == '-'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// resolveURI resolves ref against base.
func resolveURI(base, ref string) string {
	if hasScheme(ref) {
		return ref
	}
	b, r := splitURI(base), splitURI(ref)
	out := uriRef{scheme: b.scheme, authority: b.authority, hasAuthority: b.hasAuthority, path: b.path, query: b.query, fragment: r.fragment}
	switch {
	case strings.HasPrefix(ref, "#"):
	case strings.HasPrefix(ref, "//"):
		out.authority, out.hasAuthority, out.path, out.query = r.authority, true, removeDots(r.path), r.query
	case r.path == "":
		if r.hasQuery {
			out.query = r.query
		}
	default:
		merged := r.path
		if !strings.HasPrefix(r.path, "/") {
			if b.hasAuthority && b.path == "" {
				merged = "/" + r.path
			} else {
				merged = b.path[:strings.LastIndex(b.path, "/")+1] + r.path
			}
		}
		out.path, out.query = removeDots(merged), r.query
	}
	return out.String()
}

func removeDots(path string) string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		switch seg {
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
		case ".":
		default:
			out = append(out, seg)
		}
	}
	if strings.HasSuffix(path, "/.") || strings.HasSuffix(path, "/..") {
		out = append(out, "")
	}
	return strings.Join(out, "/")
}

// splitFragment: the URI without its fragment, and the fragment percent-decoded.
func splitFragment(uri string) (string, string, bool) {
	base, frag, _ := strings.Cut(uri, "#")
	dec, err := url.PathUnescape(frag)
	if err != nil {
		return base, frag, false
	}
	return base, dec, true
}
