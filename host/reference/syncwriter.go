package reference

import (
	"io"
	"sync"
)

// syncWriter serialises writes to the trace: frames are traced from the reader and the
// writer of each connection and service events from its notification queue, all at once,
// and each line must arrive whole (the writer may be a plain buffer).
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
