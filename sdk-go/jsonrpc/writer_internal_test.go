package jsonrpc

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A peer that stops reading makes senders wait once maxQueuedBytes are queued: four
// handlers each sending 2 MiB of frames never pile more than the bound (plus the one
// frame that crossed it) in memory, and when the peer reads again every frame arrives
// once, each sender's in order. Before the bound the queue took all 8 MiB.
func TestWriterQueueIsBoundedWhilePeerIsNotReading(t *testing.T) {
	pr, pw := io.Pipe()
	wr := newWriter(pw, nil, func(error) {})
	const senders, frames, size = 4, 2048, 1024
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			pad := strings.Repeat("x", size-16)
			for i := range frames {
				if err := wr.send([]byte(fmt.Sprintf("%d %05d %s", s, i, pad))); err != nil {
					t.Errorf("sender %d frame %d: %v", s, i, err)
					return
				}
			}
		})
	}
	// Nothing is read until the queue is full: then the senders can only wait.
	deadline := time.Now().Add(10 * time.Second)
	for {
		wr.mu.Lock()
		full := wr.queued >= maxQueuedBytes
		wr.mu.Unlock()
		if full {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the queue never filled")
		}
		runtime.Gosched()
	}
	next := make([]int, senders)
	br := bufio.NewReader(pr)
	for range senders * frames {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		s, _ := strconv.Atoi(f[0])
		i, _ := strconv.Atoi(f[1])
		if i != next[s] {
			t.Fatalf("sender %d: frame %d arrived where %d was due", s, i, next[s])
		}
		next[s]++
	}
	wg.Wait()
	wr.mu.Lock()
	peak := wr.peak
	wr.mu.Unlock()
	if peak > maxQueuedBytes+size {
		t.Fatalf("%d bytes were queued at the peak, over the %d-byte bound plus one frame", peak, maxQueuedBytes)
	}
}

// A sender waiting for space fails when the writer closes instead of waiting for good.
func TestWriterWaitingSenderFailsOnClose(t *testing.T) {
	pr, pw := io.Pipe()
	defer pr.Close()
	wr := newWriter(pw, nil, func(error) {})
	big := make([]byte, maxQueuedBytes)
	errs := make(chan error, 3)
	for range 3 { // one writes (and blocks in the pipe), one fills the queue, one waits
		go func() { errs <- wr.send(big) }()
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		wr.mu.Lock()
		full := wr.queued >= maxQueuedBytes
		wr.mu.Unlock()
		if full {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the queue never filled")
		}
		runtime.Gosched()
	}
	wr.close()
	// The one that filled the queue returned at once; the waiting one must return now,
	// with an error (the one writing stays blocked in the pipe nobody reads).
	failed := 0
	for range 2 {
		select {
		case err := <-errs:
			if err != nil {
				failed++
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a sender waiting for space still waits after close")
		}
	}
	if failed != 1 {
		t.Fatalf("%d senders failed, want exactly the one that waited for space", failed)
	}
}
