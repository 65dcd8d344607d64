package jsonrpc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// lineReader reads '\n'-terminated lines of at most max bytes (the newline not
// counted). It reuses its buffers: a returned line is valid until the next call.
type lineReader struct {
	r     *bufio.Reader
	limit func() int // read per line: the limit may change after initialize
	max   int
	buf   []byte
}

func newLineReader(r io.Reader, limit func() int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// errLineTooLong reports a line over the limit, quoting its first bytes.
type errLineTooLong struct {
	max   int
	first []byte
}

func (e *errLineTooLong) Error() string {
	return fmt.Sprintf("line exceeds the %d-byte limit: %s", e.max, excerpt(e.first))
}

// next returns the next line without its newline. At a clean end of input it returns
// io.EOF; input ending inside a line returns *errPartialLine.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		l.max = l.limit() // read after the data arrives: the limit may change while waiting
		n := len(l.buf) + len(chunk)
		if err == nil {
			n-- // the newline does not count
		}
		if n > l.max {
			first := append([]byte(nil), l.buf...)
			first = append(first, chunk...)
			if len(first) > excerptBytes*2 {
				first = first[:excerptBytes*2]
			}
			return nil, &errLineTooLong{max: l.max, first: first}
		}
		switch {
		case err == nil:
			if len(l.buf) == 0 {
				return chunk[:len(chunk)-1], nil // common case: no copy
			}
			l.buf = append(l.buf, chunk[:len(chunk)-1]...)
			return l.buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			l.buf = append(l.buf, chunk...)
		case errors.Is(err, io.EOF):
			if len(l.buf)+len(chunk) == 0 {
				return nil, io.EOF
			}
			l.buf = append(l.buf, chunk...)
			return nil, &errPartialLine{first: l.buf[:min(len(l.buf), excerptBytes*2)]}
		default:
			return nil, err
		}
	}
}

// errPartialLine reports input that ended inside a line (the peer died mid-write).
type errPartialLine struct{ first []byte }

func (e *errPartialLine) Error() string {
	return fmt.Sprintf("peer closed in the middle of a frame: %s", excerpt(e.first))
}
