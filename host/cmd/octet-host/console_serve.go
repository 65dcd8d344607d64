package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
)

// running is the console's commands in progress: each runs on its own goroutine with its
// own context, so a call that hangs (until its --timeout) never holds up the next line.
type running struct {
	wg      sync.WaitGroup
	mu      sync.Mutex
	next    int
	cancels map[int]context.CancelFunc
}

// start runs fn(ctx) on a new goroutine under a context cancel can end.
func (r *running) start(parent context.Context, fn func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(parent)
	r.mu.Lock()
	r.next++
	id := r.next
	r.cancels[id] = cancel
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer func() {
			r.mu.Lock()
			delete(r.cancels, id)
			r.mu.Unlock()
			cancel()
		}()
		fn(ctx)
	}()
}

// cancelAll cancels every command in progress and returns how many there were.
func (r *running) cancelAll() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.cancels {
		c()
	}
	return len(r.cancels)
}

// done is closed when every command started so far has finished.
func (r *running) done() <-chan struct{} {
	ch := make(chan struct{})
	go func() { r.wg.Wait(); close(ch) }()
	return ch
}

// serveConsole reads console lines until quit, EOF or ctx (a signal) ends, starting each
// command at once. quit and EOF wait for the commands still running (a piped script's
// last call still prints its result); a signal cancels them and waits at most
// commandCancelWait for the one that would not return.
//
// pr, when set, takes a line typed while a question is open as its answer.
func serveConsole(ctx context.Context, lines <-chan consoleLine, h *host.Host, sess *reference.Session, out io.Writer, pr *prompter) int {
	r := &running{cancels: map[int]context.CancelFunc{}}
	drain := func(outcome string) int {
		select {
		case <-r.done():
			sess.End(outcome)
			return exitOK
		case <-ctx.Done():
			return interruptedWaiting(out, sess, r)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return interruptedWaiting(out, sess, r)
		case line, ok := <-lines:
			if !ok {
				if pr != nil {
					pr.close()
				}
				return drain("completed")
			}
			if line.tooLong > 0 {
				fmt.Fprintf(out, "console: a line of %d bytes is over the %d-byte limit; ignored\n", line.tooLong, maxConsoleLine)
				continue
			}
			if pr != nil && pr.offer(line.text) {
				continue
			}
			text := strings.TrimSpace(line.text)
			verb, _, _ := strings.Cut(text, " ")
			switch verb {
			case "quit", "exit":
				return drain("completed")
			case "cancel":
				fmt.Fprintf(out, "cancel: %d running commands cancelled\n", r.cancelAll())
			default:
				r.start(ctx, func(ctx context.Context) { console(ctx, text, h, sess, out) })
			}
		}
	}
}

// interruptedWaiting ends the session after a signal: the commands' contexts are children
// of ctx, so each was cancelled on the wire; the wait is bounded for one that would not
// honour it.
func interruptedWaiting(out io.Writer, sess *reference.Session, r *running) int {
	r.cancelAll()
	select {
	case <-r.done():
	case <-time.After(commandCancelWait):
	}
	return interrupted(out, sess)
}
