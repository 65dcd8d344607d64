package process

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// tailLines and tailLineBytes bound the stderr kept in memory for diagnostics.
const (
	tailLines     = 20
	tailLineBytes = 4096 // a JSON log record with a traceback fits, so it can be shown readably
)

// TruncationMarker ends a log that reached its bound; later output is dropped (still drained).
const TruncationMarker = "[octet-host: stderr log truncated at 1 MiB; further output dropped]\n"

// stderrLog drains an extension's stderr into a bounded file and a small in-memory tail.
type stderrLog struct {
	mu    sync.Mutex
	tail  []string
	file  *os.File
	size  int64
	limit int64
	cut   bool // output was dropped and the marker written
	done  chan struct{}
	// filter rewrites the stream before it is logged or kept (Spec.StderrFilter).
	filter Filter
}

// openLog prepares path for a new process: the previous log is kept as path+".1" so the
// last crash stays readable, and the new one starts empty. Disk use is at most two bounds.
func openLog(path string, limit int64) (*stderrLog, error) {
	l := &stderrLog{limit: limit, done: make(chan struct{})}
	if path == "" {
		return l, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	_ = os.Rename(path, path+".1")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	l.file = f
	return l, nil
}

// drain reads r until EOF. Lines are split for the tail; bytes go to the file as they come
// (through the filter, when set, which may hold a few bytes back until the next read).
func (l *stderrLog) drain(r io.Reader) {
	defer close(l.done)
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		final := err != nil && err != bufio.ErrBufferFull
		if l.filter != nil {
			chunk = l.filter.Push(chunk)
			if final {
				chunk = append(append([]byte(nil), chunk...), l.filter.Flush()...)
			}
		}
		l.write(chunk)
		// A filtered chunk may hold several lines, or none.
		for rest := chunk; len(rest) > 0; {
			part := rest
			if i := bytes.IndexByte(rest, '\n'); i >= 0 {
				part = rest[:i+1]
			}
			rest = rest[len(part):]
			line = append(line, part...)
			if line[len(line)-1] == '\n' || len(line) > tailLineBytes {
				l.addTail(line)
				line = line[:0]
				if part[len(part)-1] != '\n' {
					// An over-long line keeps streaming; skip the rest of it for the tail.
					line = append(line[:0], "…"...)
				}
			}
		}
		if final {
			if len(line) > 0 {
				l.addTail(line)
			}
			break
		}
	}
	l.mu.Lock()
	if l.file != nil {
		_ = l.file.Close()
	}
	l.mu.Unlock()
}

func (l *stderrLog) write(b []byte) {
	if len(b) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil || l.cut {
		return
	}
	room := l.limit - l.size
	if int64(len(b)) <= room {
		n, _ := l.file.Write(b)
		l.size += int64(n)
		return
	}
	// The first byte past the bound writes the marker, also when an earlier write filled
	// the log exactly (that write could not know more would come).
	_, _ = l.file.Write(b[:room])
	_, _ = fmt.Fprint(l.file, "\n"+TruncationMarker)
	l.size, l.cut = l.limit, true
}

func (l *stderrLog) addTail(line []byte) {
	s := string(line)
	if len(s) > 0 && s[len(s)-1] == '\n' {
		s = s[:len(s)-1]
	}
	if len(s) > tailLineBytes {
		s = s[:tailLineBytes] + "…"
	}
	if s == "" || s == "…" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tail = append(l.tail, s)
	if len(l.tail) > tailLines {
		l.tail = l.tail[len(l.tail)-tailLines:]
	}
}

// Tail returns the last stderr lines seen (at most 20, each at most 512 bytes).
func (l *stderrLog) Tail() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.tail...)
}
