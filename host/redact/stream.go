package redact

import "bytes"

// partialSuffix is the length of the longest suffix of b that is a proper
// prefix of some needle: bytes that may be the start of a secret whose rest
// has not arrived yet.
func (m *matcher) partialSuffix(b []byte) int {
	best := 0
	for _, n := range m.needles {
		from := max(0, len(b)-(len(n)-1))
		for i := from; i < len(b); i++ {
			j := bytes.IndexByte(b[i:], n[0])
			if j < 0 {
				break
			}
			i += j
			if len(b)-i <= best {
				break
			}
			if bytes.HasPrefix(n, b[i:]) {
				best = len(b) - i
				break
			}
		}
	}
	return best
}

// safeCut is how much of b can be redacted and released now: everything
// but a possible partial secret at the end, extended past a complete match
// that straddles that point. final releases everything.
func (m *matcher) safeCut(b []byte, final bool) int {
	if final {
		return len(b)
	}
	cut := len(b) - m.partialSuffix(b)
	f := m.finder(b)
	for at := 0; at < cut; {
		i, n := f.next(at)
		if i < 0 || i >= cut {
			break
		}
		cut = max(cut, i+n)
		at = i + n
	}
	return cut
}

// Stream redacts a byte stream cut into arbitrary pieces (an extension's
// stderr): a secret split across two pieces — across a line end, say — is
// still found, at the cost of holding back the few trailing bytes that
// could begin one until the next piece or Flush. Not safe for concurrent
// use.
type Stream struct {
	r     *Redactor
	carry []byte
}

// NewStream returns a Stream redacting with r.
func NewStream(r *Redactor) *Stream { return &Stream{r: r} }

// Push takes the next piece and returns what can be released, redacted.
// The result may alias piece when nothing is held or replaced.
func (s *Stream) Push(piece []byte) []byte {
	return s.push(piece, false)
}

// Flush releases what is held back, redacted.
func (s *Stream) Flush() []byte { return s.push(nil, true) }

func (s *Stream) push(piece []byte, final bool) []byte {
	m := s.r.load()
	if m == nil {
		out := append(s.carry, piece...)
		s.carry = nil
		return out
	}
	buf := piece
	if len(s.carry) > 0 {
		buf = append(s.carry, piece...)
	}
	cut := m.safeCut(buf, final)
	out, _ := m.replace(buf[:cut])
	s.carry = append([]byte(nil), buf[cut:]...)
	return out
}
