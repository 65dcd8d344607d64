package store

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// Copy buffers: large reads and writes keep the syscall count low (16 of each
// for 16 MiB instead of 512 with io.Copy's 32 KiB), and a few buffers in flight
// let the hash run on one CPU while the next chunk is read and written on another.
const (
	copyChunk   = 1 << 20
	copyBuffers = 4
)

// dioAlign is the alignment direct writes keep, of the buffer's address, the file
// offset and the length: 4 KiB covers the 512-byte and 4 KiB logical blocks of
// common devices. A device that needs more refuses the write (EINVAL), and the blob
// is finished through the page cache (writeChunk).
const dioAlign = 4096

// ReadFrom appends everything r yields to the blob in one pass, as a pipeline of
// three goroutines over a few host-owned buffers: this one reads a chunk into a
// buffer, a writer writes it to the temp file, and a hasher hashes that same buffer
// after it was written, so the digest is of exactly the bytes written. A buffer is
// reused only after its hash is done. It implements io.ReaderFrom, so io.Copy into a
// BlobWriter takes this path.
//
// Full chunks at aligned offsets are written directly (O_DIRECT, writeChunk): the
// device reads the host's buffer, with no copy into the page cache, and the next
// chunk is read while the device writes this one. The first read stops at the next
// dioAlign boundary when the blob so far is unaligned (the head Write put there), so
// that every later chunk starts aligned.
func (w *BlobWriter) ReadFrom(r io.Reader) (int64, error) {
	free := make(chan []byte, copyBuffers)
	for range copyBuffers {
		free <- getChunk()
	}
	defer func() {
		// Every buffer is back in free once the hasher is done (below).
		for range copyBuffers {
			putChunk(<-free)
		}
	}()
	towrite := make(chan []byte, copyBuffers)
	hashed := make(chan []byte, copyBuffers)
	hashDone := make(chan struct{})
	go func() {
		defer close(hashDone)
		for b := range hashed {
			w.h.Write(b) // hash.Hash.Write never fails
			free <- b[:cap(b)]
		}
	}()
	// The writer owns w.size until it is done; werr is its first error, read after
	// writeDone closes, and failed tells the reader to stop early.
	var werr error
	var failed atomic.Bool
	writeDone := make(chan struct{})
	go func() {
		defer close(writeDone)
		defer close(hashed)
		for b := range towrite {
			if werr != nil {
				free <- b[:cap(b)] // drain: nothing more is written after an error
				continue
			}
			m, err := w.writeChunk(b)
			w.size += int64(m)
			hashed <- b[:m]
			if err != nil {
				werr = err
				failed.Store(true)
			}
		}
	}()
	start := w.size
	pos := start // where the next chunk lands, tracked here while the writer owns w.size
	var err error
	for err == nil && !failed.Load() {
		b := <-free
		if rem := pos % dioAlign; rem != 0 {
			b = b[:dioAlign-rem]
		}
		var n int
		n, err = io.ReadFull(r, b)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF // a short last chunk
		}
		if n == 0 {
			free <- b[:cap(b)]
			continue
		}
		pos += int64(n)
		towrite <- b[:n]
	}
	close(towrite)
	<-writeDone
	<-hashDone
	total := w.size - start
	if err == io.EOF {
		err = nil
	}
	if werr != nil {
		err = werr
	}
	return total, err
}

// writeChunk writes b at the end of the blob: directly when b, its address and the
// offset are aligned and the filesystem takes direct I/O, otherwise through the page
// cache with writeback started at once. A direct write the filesystem refuses
// (EINVAL: no direct I/O, or a larger alignment than dioAlign) is retried through the
// cache, and the blob stays buffered from then on. Either way Commit's fsync makes
// the bytes durable before the blob is published.
func (w *BlobWriter) writeChunk(b []byte) (int, error) {
	aligned := w.size%dioAlign == 0 && len(b)%dioAlign == 0 && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%dioAlign == 0
	if err := w.direct(aligned); err != nil {
		return 0, err
	}
	var n int
	if w.directOn {
		var err error
		n, err = w.f.Write(b)
		w.directBytes += int64(n)
		if !errors.Is(err, syscall.EINVAL) {
			return n, err
		}
		w.noDirect = true
		if err := w.direct(false); err != nil {
			return n, err
		}
	}
	m, err := w.f.Write(b[n:])
	startWriteback(w.f, w.size+int64(n), int64(m))
	return n + m, err
}

// direct switches the temp file's descriptor to direct writes or back, when that
// changes anything. A filesystem that refuses the flag leaves the blob buffered.
func (w *BlobWriter) direct(on bool) error {
	on = on && !w.noDirect
	if on == w.directOn {
		return nil
	}
	if err := setDirect(w.f, on); err != nil {
		if on {
			w.noDirect = true
			return nil
		}
		return err // the descriptor stays direct: a buffered write would fail
	}
	w.directOn = on
	return nil
}

// chunks keeps copy buffers between publishes: a 16 MiB artifact otherwise allocates
// 4 MiB of buffers each time, which the collector then has to reclaim while the next
// publish copies.
var chunks sync.Pool

// getChunk returns a copyChunk buffer whose address is dioAlign-aligned (the Go heap
// does not promise that; a large allocation is trimmed to an aligned window), so a
// direct write can use it.
func getChunk() []byte {
	if b, ok := chunks.Get().(*[]byte); ok {
		return *b
	}
	raw := make([]byte, copyChunk+dioAlign)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(raw))) & (dioAlign - 1))
	return raw[off : off+copyChunk : off+copyChunk]
}

func putChunk(b []byte) {
	b = b[:cap(b)]
	chunks.Put(&b)
}
