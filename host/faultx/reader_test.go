package faultx_test

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/octet-kit/octet/host/faultx"
)

// FuzzReader: small reads deliver every byte in order, none bigger than the bound, and
// the counts match what was read.
func FuzzReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\r\n{\"b\":2}\n"), 3, uint64(1))
	f.Add([]byte{}, 0, uint64(0))
	f.Fuzz(func(t *testing.T, b []byte, max int, seed uint64) {
		max %= 1 << 10
		r := faultx.NewReader(bytes.NewReader(b), faultx.ReadPlan{Seed: seed, MaxRead: max})
		var got []byte
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if max > 0 && n > max {
				t.Fatalf("read %d bytes, over the bound %d", n, max)
			}
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, b) {
			t.Fatalf("read %q, want %q", got, b)
		}
		read, crs := r.Counts()
		if read != int64(len(b)) || crs != int64(bytes.Count(b, []byte{'\r'})) {
			t.Fatalf("Counts() = %d, %d; want %d, %d", read, crs, len(b), bytes.Count(b, []byte{'\r'}))
		}
	})
}

func TestReaderPassesIOTest(t *testing.T) {
	text := strings.Repeat("frame\n", 500)
	r := faultx.NewReader(strings.NewReader(text), faultx.ReadPlan{Seed: 3, MaxRead: 17})
	if err := iotest.TestReader(r, []byte(text)); err != nil {
		t.Fatal(err)
	}
}

// A stopped Reader reads nothing until Resume; then everything arrives.
func TestReaderStopAndResume(t *testing.T) {
	pr, pw := io.Pipe()
	r := faultx.NewReader(pr, faultx.ReadPlan{})
	r.Stop()
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	wrote := make(chan struct{})
	go func() {
		_, _ = pw.Write([]byte("held back\n"))
		_ = pw.Close()
		close(wrote)
	}()
	select {
	case <-wrote:
		t.Fatal("a write completed while the reader was stopped (io.Pipe hands bytes over only on a read)")
	case <-time.After(50 * time.Millisecond):
	}
	if n, _ := r.Counts(); n != 0 {
		t.Fatalf("%d bytes read while stopped", n)
	}
	r.Resume()
	if b := <-got; string(b) != "held back\n" {
		t.Fatalf("read %q after Resume", b)
	}
	r.Resume() // idempotent
	r.Stop()
	r.Resume()
}

// HangUp ends reading at the end of the line under way: what was read is whole lines.
func TestReaderHangUpEndsAtALineEnd(t *testing.T) {
	text := strings.Repeat("frame one\n", 100)
	r := faultx.NewReader(strings.NewReader(text), faultx.ReadPlan{Seed: 9, MaxRead: 7})
	buf := make([]byte, 4)
	got, _ := r.Read(buf) // mid-line
	r.Stop()
	r.HangUp()
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	all := string(buf[:got]) + string(rest)
	if !strings.HasSuffix(all, "\n") || strings.Count(all, "\n") != 1 || !strings.HasPrefix(text, all) {
		t.Fatalf("read %q after HangUp mid-line, want the rest of the first line only", all)
	}
	if n, _ := r.Read(buf); n != 0 {
		t.Fatal("read after the hang-up")
	}
}
