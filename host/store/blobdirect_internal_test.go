package store

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestBlobDirectAfterHead: a head written through Write (what ingestScratch does with
// the bytes it checked) followed by ReadFrom stores exactly the bytes, whatever the
// head's length does to alignment (none, 12 bytes, one short of a block, one block,
// past a block, longer than a chunk), with a tail that is and is not block-sized.
// Where the temp file's filesystem takes O_DIRECT, most of the bytes go directly:
// remove the direct path (or break its alignment) and this fails.
func TestBlobDirectAfterHead(t *testing.T) {
	s := openInternal(t, t.TempDir())
	direct := directSupported(t, filepath.Join(s.dir, blobDir))
	for _, head := range []int{0, 12, dioAlign - 1, dioAlign, dioAlign + 5, copyChunk + 7} {
		for _, n := range []int{head, head + 3*copyChunk, head + 3*copyChunk + dioAlign, head + 2*copyChunk + 12345} {
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(i*31 + i>>11)
			}
			w, err := s.NewBlobWriter()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(data[:head]); err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(w, io.LimitReader(bytes.NewReader(data[head:]), int64(n-head)+1)); err != nil {
				t.Fatalf("head %d, %d bytes: %v", head, n, err)
			}
			directBytes := w.directBytes
			sum, err := w.Commit()
			if err != nil || sum != Digest(data) {
				t.Fatalf("head %d, %d bytes: commit %s %v", head, n, sum, err)
			}
			got, err := os.ReadFile(s.BlobPath(sum))
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("head %d, %d bytes: stored %d bytes differ, %v", head, n, len(got), err)
			}
			// Everything but the head, the bytes up to the next block and a tail
			// shorter than a chunk goes directly.
			if want := int64(n - head - 2*copyChunk); direct && directBytes < want {
				t.Errorf("head %d, %d bytes: %d written directly, want at least %d", head, n, directBytes, want)
			}
			if !direct && directBytes != 0 {
				t.Errorf("head %d: %d bytes written directly where O_DIRECT is refused", head, directBytes)
			}
		}
	}
}

// directSupported reports whether files in dir take O_DIRECT (tmpfs before Linux 6.6,
// for one, does not), so the test knows what to expect.
func directSupported(t *testing.T, dir string) bool {
	probe, err := os.CreateTemp(dir, "probe-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe.Name())
	_ = probe.Close()
	f, err := openDirect(probe.Name())
	ok := err == nil
	if ok {
		defer f.Close()
		b := getChunk()
		defer putChunk(b)
		_, err := f.Write(b[:dioAlign])
		ok = err == nil
	}
	t.Logf("O_DIRECT in %s: %v", dir, ok)
	return ok
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestBlobReadFromWriteError: when the temp file cannot be written, ReadFrom returns
// the write's error and stops reading within the buffers in flight, instead of
// draining the source or hanging.
func TestBlobReadFromWriteError(t *testing.T) {
	s := openInternal(t, t.TempDir())
	w, err := s.NewBlobWriter()
	if err != nil {
		t.Fatal(err)
	}
	name := w.f.Name()
	w.f.Close() // every write now fails
	src := &countingReader{r: bytes.NewReader(make([]byte, 64*copyChunk))}
	n, err := w.ReadFrom(src)
	if !errors.Is(err, os.ErrClosed) || n != 0 {
		t.Fatalf("ReadFrom = %d, %v; want 0 and the closed file's error", n, err)
	}
	if max := int64(copyBuffers+2) * copyChunk; src.n > max {
		t.Fatalf("read %d bytes after the first write failed; want at most %d", src.n, max)
	}
	os.Remove(name)
}
