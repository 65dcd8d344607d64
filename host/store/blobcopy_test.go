package store_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/octet-kit/octet/host/store"
)

// TestBlobReadFrom: the pipelined copy stores and hashes exactly the bytes read, for
// sizes around the chunk and buffer counts (empty, short, exact chunks, a short last
// chunk, more chunks than buffers) and for readers that return little at a time.
func TestBlobReadFrom(t *testing.T) {
	st := open(t, t.TempDir())
	const mib = 1 << 20
	for _, n := range []int{0, 1, 4095, mib - 1, mib, mib + 1, 4 * mib, 9*mib + 12345} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*7 + i>>13)
		}
		for name, r := range map[string]io.Reader{
			"whole": bytes.NewReader(data),
			"half":  iotest.HalfReader(bytes.NewReader(data)),
		} {
			w, err := st.NewBlobWriter()
			if err != nil {
				t.Fatal(err)
			}
			// io.Copy must take ReadFrom (io.LimitReader has no WriteTo).
			got, err := io.Copy(w, io.LimitReader(r, int64(n)+1))
			if err != nil || got != int64(n) || w.Size() != int64(n) {
				t.Fatalf("%d %s: copied %d (size %d), %v", n, name, got, w.Size(), err)
			}
			sum, err := w.Commit()
			if err != nil || sum != store.Digest(data) {
				t.Fatalf("%d %s: commit %s %v", n, name, sum, err)
			}
			if b, err := os.ReadFile(st.BlobPath(sum)); err != nil || !bytes.Equal(b, data) {
				t.Fatalf("%d %s: stored %d bytes, %v", n, name, len(b), err)
			}
		}
	}
}

// TestBlobReadFromError: a read error part way is returned with the bytes before it
// counted, and an aborted blob leaves no temp file.
func TestBlobReadFromError(t *testing.T) {
	st := open(t, t.TempDir())
	boom := errors.New("boom")
	w, err := st.NewBlobWriter()
	if err != nil {
		t.Fatal(err)
	}
	r := io.MultiReader(bytes.NewReader(make([]byte, 3<<20+5)), iotest.ErrReader(boom))
	n, err := w.ReadFrom(r)
	if !errors.Is(err, boom) || n != 3<<20+5 {
		t.Fatalf("ReadFrom = %d, %v", n, err)
	}
	w.Abort()
	entries, _ := os.ReadDir(filepath.Join(st.Dir(), "artifacts", "tmp"))
	if len(entries) != 0 {
		t.Fatalf("temp files left: %v", entries)
	}
}
