package reference

import (
	"io"
	"sync"
)

// SyncWriter serialises writes to w, so that each line written at once arrives whole: the
// trace is written from every connection's reader and writer and from the service events
// of its notification queue at once, and the run console from event goroutines and its
// command loop (w may be a plain buffer).
func SyncWriter(w io.Writer) io.Writer { return &syncWriter{w: w} }

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
