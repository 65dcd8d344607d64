package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// chunkReader hands out its data in pieces of the given sizes (cycled), so the fuzzer
// controls where reads split a line: at a newline, inside one, across the 64 KiB buffer.
type chunkReader struct {
	data  []byte
	sizes []byte
	n     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	size := len(r.data)
	if len(r.sizes) > 0 {
		size = int(r.sizes[r.n%len(r.sizes)]) + 1
		r.n++
	}
	size = min(size, len(p), len(r.data))
	copy(p, r.data[:size])
	r.data = r.data[size:]
	return size, nil
}

// FuzzLineReader checks the frame reader against a model written from its contract: every
// '\n'-terminated line of at most the limit comes back whole and in order, a longer one is
// refused as too long, a clean end is io.EOF and bytes after the last newline are a partial
// frame. No returned line ever exceeds the limit in force when it was read.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\n{}\n"), uint32(64), uint32(0), []byte{3})
	f.Add([]byte("ab\n\ncd"), uint32(2), uint32(0), []byte{})
	f.Add([]byte("\n"), uint32(0), uint32(70000), []byte{255, 0, 17})
	f.Add([]byte("x\ny\n"), uint32(70000), uint32(65536), []byte{})
	f.Add([]byte("\r\n\xef\xbb\xbf{}\r\n"), uint32(5), uint32(3), []byte{0})
	for _, seed := range seedFiles(f, filepath.Join("..", "..", "schema", "vectors"), filepath.Join("..", "..", "host", "testdata", "hostile")) {
		f.Add(append(seed, '\n'), uint32(len(seed)), uint32(0), []byte{7})
	}
	f.Fuzz(func(t *testing.T, data []byte, limit, pad uint32, sizes []byte) {
		limit %= 1 << 18
		pad %= 1 << 18
		// A run of filler in the middle reaches the reader's buffer boundaries with a small input.
		mid := len(data) / 2
		in := append(append(append([]byte(nil), data[:mid]...), bytes.Repeat([]byte{'x'}, int(pad))...), data[mid:]...)
		max := int(limit)
		lr := newLineReader(&chunkReader{data: in, sizes: sizes}, func() int { return max })
		rest := in
		for i := 0; ; i++ {
			if i%2 == 1 {
				max = int(limit) / 2 // the limit may change between frames (after initialize)
			} else {
				max = int(limit)
			}
			line, err := lr.next()
			nl := bytes.IndexByte(rest, '\n')
			want := rest
			if nl >= 0 {
				want = rest[:nl]
			}
			var tooLong *errLineTooLong
			var partial *errPartialLine
			switch {
			case len(want) > max:
				if !errors.As(err, &tooLong) {
					t.Fatalf("frame %d of %d bytes over the %d-byte limit: got %q, %v", i, len(want), max, excerpt(line), err)
				}
				if tooLong.max != max {
					t.Fatalf("too-long error names limit %d, want %d", tooLong.max, max)
				}
				return
			case nl >= 0:
				if err != nil || !bytes.Equal(line, want) {
					t.Fatalf("frame %d: got %q, %v; want %q", i, excerpt(line), err, excerpt(want))
				}
				if len(line) > max || bytes.IndexByte(line, '\n') >= 0 {
					t.Fatalf("frame %d of %d bytes returned (limit %d)", i, len(line), max)
				}
				rest = rest[nl+1:]
			case len(rest) == 0:
				if !errors.Is(err, io.EOF) || line != nil {
					t.Fatalf("clean end: got %q, %v; want io.EOF", line, err)
				}
				return
			default:
				if !errors.As(err, &partial) || line != nil {
					t.Fatalf("%d bytes after the last newline: got %q, %v; want a partial frame", len(rest), excerpt(line), err)
				}
				if !bytes.HasPrefix(rest, partial.first) || len(partial.first) > excerptBytes*2 {
					t.Fatalf("partial frame quotes %q, not the first bytes of %q", partial.first, excerpt(rest))
				}
				return
			}
		}
	})
}

// seedFiles returns every regular file below the given directories; a directory that does
// not exist (the SDK copied out of the repository, a corpus not merged yet) adds nothing.
func seedFiles(tb testing.TB, dirs ...string) [][]byte {
	var out [][]byte
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil {
				out = append(out, data)
			}
			return nil
		})
	}
	return out
}
