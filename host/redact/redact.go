// Package redact is the host's one redactor: it knows every secret value the
// host has handed to an extension (broker values, answers to secret input
// prompts) and removes them from everything the host prints or stores —
// traces, recordings, events, diagnostics, the CLI's results, errors and
// stderr tails, and the extensions' stderr logs.
//
// A secret is recognised by value, in any encoding a JSON writer may have
// given it: JSON frames are matched on their decoded strings (so `\u0022`,
// `\/` or `\u00e9` hide nothing), free text on the raw bytes and on the
// escaped forms Go, Python (`json.dumps`, with and without ensure_ascii) and
// JavaScript (`JSON.stringify`) write, and in the derived encodings an
// extension re-encodes it in (derived.go: percent, base64, hex, HTML, \u).
// A secret hashed, encrypted or split into pieces cannot be recognised.
package redact

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
)

// Placeholder replaces a secret value wherever it is found.
const Placeholder = "[redacted]"

// Redactor redacts the secrets added to it. The zero value is not usable;
// call New. It is safe for concurrent use: Add takes a lock and publishes a
// new immutable matcher, the redaction calls only load it.
type Redactor struct {
	mu      sync.Mutex
	secrets map[string]struct{}
	m       atomic.Pointer[matcher]
}

// New returns a Redactor that knows no secret yet.
func New() *Redactor { return &Redactor{secrets: map[string]struct{}{}} }

// Add registers secret values. Call it before the value is handed out (the
// frame carrying it is traced and recorded too). Empty values are ignored:
// there is nothing to find.
func (r *Redactor) Add(values ...string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for _, v := range values {
		if _, ok := r.secrets[v]; v == "" || ok {
			continue
		}
		r.secrets[v] = struct{}{}
		changed = true
	}
	if !changed {
		return
	}
	all := make([]string, 0, len(r.secrets))
	for s := range r.secrets {
		all = append(all, s)
	}
	r.m.Store(newMatcher(all))
}

// Len is the number of distinct secret values registered.
func (r *Redactor) Len() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.secrets)
}

// matcher is the immutable needle set of one generation of secrets: every
// secret in every encoding it knows, deduplicated, longest first (so a
// longer encoding wins over a shorter one starting at the same byte).
type matcher struct {
	needles [][]byte
	maxLen  int
	// The prefilter: each needle of at least anchorLen bytes is filed under
	// its first anchorLen bytes, and a bit per hashed prefix says whether a
	// window of the text may begin one. A text is scanned once, one hash and
	// one bit test per byte, however many needles there are (each secret has
	// dozens of derived forms with distinct prefixes, so one substring
	// search per prefix would grow with them).
	filter   [filterBits / 64]uint64
	prefixed map[uint32][]int // needle indices, longest first
	short    []int            // needles shorter than anchorLen, longest first
}

// anchorLen is the prefix length the prefilter hashes.
const anchorLen = 4

// filterBits is the size of the prefilter's bit set (8 KiB).
const filterBits = 1 << 16

func anchorHash(x uint32) uint32 { return (x * 2654435761) >> 16 }

func newMatcher(secrets []string) *matcher {
	seen := map[string]struct{}{}
	m := &matcher{prefixed: map[uint32][]int{}}
	for _, s := range secrets {
		for _, enc := range encodings(s) {
			if _, ok := seen[enc]; ok {
				continue
			}
			seen[enc] = struct{}{}
			m.needles = append(m.needles, []byte(enc))
			m.maxLen = max(m.maxLen, len(enc))
		}
	}
	slices.SortFunc(m.needles, func(a, b []byte) int { return len(b) - len(a) })
	for i, n := range m.needles {
		if len(n) < anchorLen {
			m.short = append(m.short, i)
			continue
		}
		x := binary.LittleEndian.Uint32(n)
		h := anchorHash(x)
		m.filter[h/64] |= 1 << (h % 64)
		m.prefixed[x] = append(m.prefixed[x], i)
	}
	return m
}

// at is the length of the longest needle starting at b[i], or 0.
func (m *matcher) at(b []byte, i int) int {
	if i+anchorLen <= len(b) {
		x := binary.LittleEndian.Uint32(b[i:])
		if h := anchorHash(x); m.filter[h/64]&(1<<(h%64)) != 0 {
			for _, k := range m.prefixed[x] {
				if bytes.HasPrefix(b[i:], m.needles[k]) {
					return len(m.needles[k])
				}
			}
		}
	}
	for _, k := range m.short {
		if bytes.HasPrefix(b[i:], m.needles[k]) {
			return len(m.needles[k])
		}
	}
	return 0
}

// contains reports whether any needle occurs in b (the hot-path prefilter:
// one pass, no allocation).
func (m *matcher) contains(b []byte) bool {
	i, _ := m.scan(b, 0)
	return i >= 0
}

// scan finds the leftmost occurrence at or after from, and its length
// (leftmost-longest), or -1. The loop is the hot path: one load, one
// multiply and one bit test per byte.
func (m *matcher) scan(b []byte, from int) (int, int) {
	if len(m.short) == 0 {
		filter := &m.filter
		for i := from; i+anchorLen <= len(b); i++ {
			x := binary.LittleEndian.Uint32(b[i:])
			h := anchorHash(x)
			if filter[h/64]&(1<<(h%64)) == 0 {
				continue
			}
			if n := m.at(b, i); n > 0 {
				return i, n
			}
		}
		return -1, 0
	}
	for i := from; i < len(b); i++ {
		if n := m.at(b, i); n > 0 {
			return i, n
		}
	}
	return -1, 0
}

// finder walks the needle occurrences of one text left to right. It keeps
// the last occurrence found, so callers that ask again from a point before
// it (the line grouping of Writer) do not rescan: a hostile extension
// echoing a secret thousands of times in a 1 MiB frame costs linear time,
// not quadratic.
type finder struct {
	m                 *matcher
	b                 []byte
	from, pos, posLen int
	searched          bool
}

func (m *matcher) finder(b []byte) *finder { return &finder{m: m, b: b} }

// next finds the leftmost occurrence at or after from (leftmost-longest: the
// needles are sorted longest first): its start and length, or -1. Calls must
// not decrease from.
func (f *finder) next(from int) (int, int) {
	if f.searched && from >= f.from && (f.pos < 0 || from <= f.pos) {
		return f.pos, f.posLen
	}
	f.searched, f.from = true, from
	f.pos, f.posLen = f.m.scan(f.b, from)
	return f.pos, f.posLen
}

// replace returns b with every needle occurrence replaced by Placeholder,
// and whether anything was replaced.
func (m *matcher) replace(b []byte) ([]byte, bool) {
	if !m.contains(b) {
		return b, false
	}
	f := m.finder(b)
	i, n := f.next(0)
	if i < 0 {
		return b, false
	}
	out := make([]byte, 0, len(b))
	from := 0
	for i >= 0 {
		out = append(out, b[from:i]...)
		out = append(out, Placeholder...)
		from = i + n
		i, n = f.next(from)
	}
	return append(out, b[from:]...), true
}

func (r *Redactor) load() *matcher {
	if r == nil {
		return nil
	}
	return r.m.Load()
}

// Text redacts free text (an error message, a stderr line, a printed
// event): every secret, raw or in a known escaped form, becomes Placeholder.
func (r *Redactor) Text(s string) string {
	m := r.load()
	if m == nil || !m.contains([]byte(s)) {
		return s
	}
	out, _ := m.replace([]byte(s))
	return string(out)
}

// Frame redacts one JSON text (a wire frame, a printed result line). Every
// string (key or value) whose decoded value contains a secret, in any
// escaping, gets the secret replaced by Placeholder and is re-encoded; the
// rest of the frame is kept byte for byte. A secret still visible after that
// (spanning a key and its value, written as a number) is replaced in the
// bytes, which leaves the frame invalid JSON rather than leaking. Text that
// is not JSON is redacted as free text. It returns frame itself when nothing
// matched; callers must not modify the result.
func (r *Redactor) Frame(frame []byte) []byte {
	m := r.load()
	if m == nil {
		return frame
	}
	return m.frame(frame, 0)
}

// maxNesting bounds how deep Frame looks into JSON carried inside JSON
// strings (a logged frame in an error message): hostile input cannot make
// it recurse without end.
const maxNesting = 4

func (m *matcher) frame(frame []byte, depth int) []byte {
	hit := m.contains(frame)
	// Without a backslash every string is its own decoded value, so the raw
	// prefilter is exact. With one, only the escaped strings need decoding,
	// and when none of them holds a secret the frame is returned as it is,
	// without validating or copying it (the common case of text with \n).
	if !hit && (bytes.IndexByte(frame, '\\') < 0 || !m.escapedHit(frame, depth)) {
		return frame
	}
	if !json.Valid(frame) {
		out, _ := m.replace(frame)
		return out
	}
	out := m.redactStrings(frame, depth)
	// What the string pass could not fix: a secret across JSON structure.
	out, _ = m.replace(out)
	return out
}

// escapedHit reports whether any escaped string literal of frame, decoded,
// holds a secret (directly or in JSON nested in it).
func (m *matcher) escapedHit(frame []byte, depth int) bool {
	var stack [512]byte
	for at := 0; ; {
		start, end, esc, ok := nextString(frame, at)
		if !ok {
			return false
		}
		at = end + 1
		if !esc {
			continue
		}
		value := unquote(stack[:0], frame[start:end+1])
		if m.contains(value) || m.nestedHit(value, depth) {
			return true
		}
	}
}

// nestedHit: a decoded string that is itself JSON with escapes (a logged
// frame) is searched as a frame, up to maxNesting levels.
func (m *matcher) nestedHit(value []byte, depth int) bool {
	return depth < maxNesting && bytes.IndexByte(value, '\\') >= 0 && m.escapedHit(value, depth+1)
}

// redactStrings rewrites every string literal of valid JSON whose decoded
// value holds a secret: the secret becomes Placeholder and the string is
// re-encoded; a decoded string that is itself JSON is redacted as a frame.
func (m *matcher) redactStrings(frame []byte, depth int) []byte {
	var out []byte
	last := 0
	for at := 0; ; {
		start, end, _, ok := nextString(frame, at)
		if !ok {
			break
		}
		at = end + 1
		value := unquote(nil, frame[start:end+1])
		clean, changed := m.replace(value)
		if !changed && m.nestedHit(value, depth) {
			clean, changed = m.frame(value, depth+1), true
		}
		if !changed {
			continue
		}
		out = append(out, frame[last:start]...)
		out = appendString(out, clean)
		last = end + 1
	}
	if out == nil {
		return frame
	}
	return append(out, frame[last:]...)
}

// appendString appends s as a JSON string (Go's escaping without the HTML
// escapes: the result is printed or stored, never embedded in HTML).
func appendString(dst, s []byte) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(string(s))
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...)
}

// Holds reports whether b (free text or a JSON text) holds a registered
// secret in any form the redactor knows, raw, escaped, in a decoded JSON
// string or in a derived encoding. It is how the host refuses to store one
// (a KV write), rather than storing it redacted, which would lose data
// silently.
func (r *Redactor) Holds(b []byte) bool {
	m := r.load()
	if m == nil {
		return false
	}
	return m.contains(b) || (bytes.IndexByte(b, '\\') >= 0 && m.escapedHit(b, 0))
}
