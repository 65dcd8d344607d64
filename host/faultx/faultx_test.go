package faultx_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/octet-kit/octet/host/faultx"
)

// chunkRecorder keeps every write call's bytes apart.
type chunkRecorder struct {
	mu     sync.Mutex
	chunks [][]byte
}

func (c *chunkRecorder) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chunks = append(c.chunks, append([]byte(nil), p...))
	return len(p), nil
}

func (c *chunkRecorder) joined() []byte { return bytes.Join(c.chunks, nil) }

// FuzzCut: for any input, bound and seed, the pieces are non-empty, within the bound,
// join back to the input, and the same seed cuts the same way.
func FuzzCut(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`+"\n"), 1, uint64(0))
	f.Add([]byte("a"), 7, uint64(3))
	f.Add([]byte{}, 0, uint64(9))
	f.Add(bytes.Repeat([]byte("x\n"), 300), 64, uint64(42))
	f.Fuzz(func(t *testing.T, b []byte, max int, seed uint64) {
		max %= 1 << 12
		pieces := faultx.Cut(rand.New(rand.NewPCG(seed, 1)), b, max)
		if got := bytes.Join(pieces, nil); !bytes.Equal(got, b) {
			t.Fatalf("pieces join to %q, want %q", got, b)
		}
		for i, p := range pieces {
			if len(p) == 0 {
				t.Fatalf("piece %d is empty", i)
			}
			if max > 0 && len(p) > max {
				t.Fatalf("piece %d has %d bytes, over the bound %d", i, len(p), max)
			}
		}
		if max <= 0 && len(b) > 0 && len(pieces) != 1 {
			t.Fatalf("bound %d cut the input into %d pieces, want it whole", max, len(pieces))
		}
		if max == 1 && len(pieces) != len(b) {
			t.Fatalf("bound 1 gave %d pieces for %d bytes, want every boundary", len(pieces), len(b))
		}
		again := faultx.Cut(rand.New(rand.NewPCG(seed, 1)), b, max)
		if len(again) != len(pieces) {
			t.Fatalf("the same seed cut %d then %d pieces", len(pieces), len(again))
		}
		for i := range again {
			if len(again[i]) != len(pieces[i]) {
				t.Fatalf("the same seed cut piece %d at %d then %d bytes", i, len(pieces[i]), len(again[i]))
			}
		}
	})
}

// FuzzWriter: what the Writer writes, in however many calls, is exactly what it was
// given, frame after frame, and the first ByteFrames frames go one byte per call.
func FuzzWriter(f *testing.F) {
	f.Add([]byte("{\"id\":1}\n"), []byte("{\"id\":2}\n"), 1, 5, uint64(7))
	f.Add([]byte("x"), []byte(""), 0, 0, uint64(0))
	f.Fuzz(func(t *testing.T, a, b []byte, byteFrames, maxPiece int, seed uint64) {
		byteFrames, maxPiece = byteFrames%3, maxPiece%100
		rec := &chunkRecorder{}
		w := faultx.NewWriter(rec, faultx.Plan{Seed: seed, ByteFrames: byteFrames, MaxPiece: maxPiece})
		for _, frame := range [][]byte{a, b} {
			before := len(rec.chunks)
			n, err := w.Write(frame)
			if err != nil || n != len(frame) {
				t.Fatalf("Write(%d bytes) = %d, %v", len(frame), n, err)
			}
			if byteFrames > 0 {
				for _, c := range rec.chunks[before:] {
					if len(c) != 1 {
						t.Fatalf("a byte-by-byte frame was written %d bytes at once", len(c))
					}
				}
			}
			byteFrames--
		}
		if got, want := rec.joined(), append(append([]byte(nil), a...), b...); !bytes.Equal(got, want) {
			t.Fatalf("wrote %q, want %q", got, want)
		}
		if w.Pieces() != len(rec.chunks) {
			t.Fatalf("Pieces() = %d, %d write calls made", w.Pieces(), len(rec.chunks))
		}
	})
}

// The handshake frame written byte by byte reaches the other end whole, every byte a
// separate write, and a pause plan still preserves the bytes.
func TestWriterByteFramesThenPieces(t *testing.T) {
	rec := &chunkRecorder{}
	w := faultx.NewWriter(rec, faultx.Plan{Seed: 1, ByteFrames: 1, MaxPiece: 8, MaxPause: 1})
	first := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n")
	second := bytes.Repeat([]byte("0123456789"), 20)
	if _, err := w.Write(first); err != nil {
		t.Fatal(err)
	}
	if len(rec.chunks) != len(first) {
		t.Fatalf("first frame in %d writes, want %d (one per byte)", len(rec.chunks), len(first))
	}
	if _, err := w.Write(second); err != nil {
		t.Fatal(err)
	}
	rest := rec.chunks[len(first):]
	if len(rest) < len(second)/8 {
		t.Fatalf("second frame in %d writes, want at least %d (pieces of at most 8)", len(rest), len(second)/8)
	}
	if !bytes.Equal(rec.joined(), append(first, second...)) {
		t.Fatal("bytes changed on the way")
	}
}

// errWriter fails after n bytes.
type errWriter struct{ n int }

func (e *errWriter) Write(p []byte) (int, error) {
	if len(p) > e.n {
		k := e.n
		e.n = 0
		return k, io.ErrClosedPipe
	}
	e.n -= len(p)
	return len(p), nil
}

func TestWriterReportsBytesBeforeTheError(t *testing.T) {
	w := faultx.NewWriter(&errWriter{n: 5}, faultx.Plan{MaxPiece: 3})
	n, err := w.Write([]byte("0123456789"))
	if err != io.ErrClosedPipe || n != 5 {
		t.Fatalf("Write = %d, %v; want 5, %v", n, err, io.ErrClosedPipe)
	}
}

func TestMalformedFrames(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`)
	if got := faultx.CRLF(line); !bytes.Equal(got, append(append([]byte(nil), line...), "\r\n"...)) {
		t.Errorf("CRLF = %q", got)
	}
	if got := faultx.WithBOM(line); !bytes.HasPrefix(got, []byte("\xef\xbb\xbf{")) || !bytes.HasSuffix(got, []byte("}\n")) {
		t.Errorf("WithBOM = %q", got)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		cut := faultx.Truncated(rng, line)
		if len(cut) == 0 || len(cut) >= len(line) || !bytes.HasPrefix(line, cut) {
			t.Fatalf("Truncated = %q: want a strict non-empty prefix of %q", cut, line)
		}
	}
	for range 200 {
		g := faultx.Garbage(rng)
		if len(g) < 2 || g[len(g)-1] != '\n' || bytes.ContainsAny(g[:1], " \t\r\n") {
			t.Fatalf("Garbage = %q: want a line ending in \\n whose first byte is not whitespace", g)
		}
		if bytes.HasPrefix(g, []byte("{")) && bytes.HasSuffix(bytes.TrimSpace(g), []byte("}")) {
			t.Fatalf("Garbage = %q looks like a whole object", g)
		}
	}
}

// The same seed gives the same garbage, and different seeds reach every kind.
func TestGarbageIsAFunctionOfTheSeed(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(64) {
		a := faultx.Garbage(faultx.Plan{Seed: seed}.Rand())
		b := faultx.Garbage(faultx.Plan{Seed: seed}.Rand())
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: %q then %q", seed, a, b)
		}
		seen[string(a)] = true
	}
	if len(seen) < 6 {
		t.Fatalf("64 seeds gave only %d distinct garbage lines", len(seen))
	}
}
