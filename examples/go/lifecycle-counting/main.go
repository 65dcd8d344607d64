// Command lifecycle-counting reference-counts running turns per session from lifecycle
// observations (the caffeinate pattern without the macOS helper), reports the count as
// status and clears it on shutdown: the Go twin of the Python and TypeScript examples.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	octet "github.com/octet-kit/octet/sdk-go"
)

// turns holds the running turns of each session. Lifecycle handlers run on the SDK's
// workers, so every access takes the lock.
type turns struct {
	mu      sync.Mutex
	running map[string]map[string]bool // session -> turn ids
}

func (t *turns) total() int {
	n := 0
	for _, s := range t.running {
		n += len(s)
	}
	return n
}

func main() {
	ext := octet.New(octet.Options{})
	t := &turns{running: map[string]map[string]bool{}}
	ext.OnLifecycle("turn_started", func(ctx context.Context, ev octet.LifecycleNotification) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.running[ev.SessionID] == nil {
			t.running[ev.SessionID] = map[string]bool{}
		}
		t.running[ev.SessionID][ev.TurnID] = true
		ext.Log().Info("turn started", "session_id", ev.SessionID, "running", t.total())
	})
	ext.OnLifecycle("turn_settled", func(ctx context.Context, ev octet.LifecycleNotification) {
		t.mu.Lock()
		defer t.mu.Unlock()
		delete(t.running[ev.SessionID], ev.TurnID)
		ext.Log().Info("turn settled", "turn_id", ev.TurnID, "outcome", ev.Outcome, "running", t.total())
	})
	ext.OnLifecycle("session_settled", func(ctx context.Context, ev octet.LifecycleNotification) {
		// A settled session can leave no turn behind, whatever notifications were lost.
		t.mu.Lock()
		defer t.mu.Unlock()
		delete(t.running, ev.SessionID)
	})
	ext.Status("status", func(ctx context.Context, params json.RawMessage) (octet.StatusResult, error) {
		t.mu.Lock()
		defer t.mu.Unlock()
		return octet.StatusResult{Surface: "status", Text: fmt.Sprintf("%d turn(s) running", t.total())}, nil
	})
	ext.OnShutdown(func(ctx context.Context) {
		t.mu.Lock()
		defer t.mu.Unlock()
		clear(t.running)
		ext.Log().Info("released all turn state")
	})
	ext.Run()
}
