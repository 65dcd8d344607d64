package store

import (
	"errors"
	"io"
	"sync"
)

// Copy buffers: large reads and writes keep the syscall count low (16 of each
// for 16 MiB instead of 512 with io.Copy's 32 KiB), and a few buffers in flight
// let the hash run on one CPU while the next chunk is read and written on another.
const (
	copyChunk   = 1 << 20
	copyBuffers = 4
)

// ReadFrom appends everything r yields to the blob in one pass: each chunk is read
// into a buffer the host owns, written to the temp file, and hashed by a second
// goroutine from that same buffer, so the digest is of exactly the bytes written.
// A buffer is reused only after its hash is done. It implements io.ReaderFrom, so
// io.Copy into a BlobWriter takes this path.
func (w *BlobWriter) ReadFrom(r io.Reader) (int64, error) {
	free := make(chan []byte, copyBuffers)
	for range copyBuffers {
		free <- getChunk()
	}
	defer func() {
		// Every buffer is back in free once the hash goroutine is done (below).
		for range copyBuffers {
			putChunk(<-free)
		}
	}()
	hashed := make(chan []byte, copyBuffers)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range hashed {
			w.h.Write(b) // hash.Hash.Write never fails
			free <- b[:cap(b)]
		}
	}()
	var total int64
	var err error
	for err == nil {
		b := <-free
		var n int
		n, err = io.ReadFull(r, b)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF // a short last chunk
		}
		if n == 0 {
			free <- b
			continue
		}
		m, werr := w.f.Write(b[:n])
		startWriteback(w.f, w.size, int64(m))
		w.size += int64(m)
		total += int64(m)
		hashed <- b[:m]
		if werr != nil {
			err = werr
		}
	}
	close(hashed)
	<-done
	if err == io.EOF {
		err = nil
	}
	return total, err
}

// chunks keeps copy buffers between publishes: a 16 MiB artifact otherwise allocates
// 4 MiB of buffers each time, which the collector then has to reclaim while the next
// publish copies.
var chunks sync.Pool

func getChunk() []byte {
	if b, ok := chunks.Get().(*[]byte); ok {
		return *b
	}
	return make([]byte, copyChunk)
}

func putChunk(b []byte) {
	b = b[:cap(b)]
	chunks.Put(&b)
}
