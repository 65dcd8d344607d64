package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// IdempotencyStore keeps tool results under the caller's idempotency keys, durably, so a
// retry (after a lost answer, a crash of the caller or a host restart) gets the recorded
// result instead of a second call. A first call claims the key before it runs, so of two
// concurrent first calls (one host, or two host processes sharing the store) one runs and
// the other waits for its result. The reference host's SQLite store implements it.
type IdempotencyStore interface {
	// ClaimKey returns the result recorded under (extension, key), or takes the key for the
	// call with digest (Token set) unless another live call holds it (Holder set). A claim
	// whose lease ran out or whose process is gone is taken over.
	ClaimKey(ctx context.Context, extension, key, digest string, lease time.Duration) (IdempotencyClaim, error)
	// RenewClaim extends token's lease while its call runs; false when it lost the claim.
	RenewClaim(ctx context.Context, extension, key, token string, lease time.Duration) (bool, error)
	// CompleteClaim records result (a key recorded already keeps its first result) and
	// ends token's claim, atomically.
	CompleteClaim(ctx context.Context, extension, key, token, digest string, result []byte) error
	// ReleaseClaim ends token's claim without a result: the next call with the key runs.
	ReleaseClaim(ctx context.Context, extension, key, token string) error
}

// IdempotencyClaim is what IdempotencyStore.ClaimKey found.
type IdempotencyClaim struct {
	Recorded bool   // Result is the recorded result
	Result   []byte //
	Token    string // set when the caller now holds the key and runs the call
	Digest   string // the recorded call's, or the holding call's
	Holder   string // who holds the key, when another call does
}

// IdempotencyBusyError is a call whose key another call still holds after the wait bound
// (the host's request timeout and cancel grace: longer than that first call may run here).
// Nothing was sent; retry later with the same key to get its result.
type IdempotencyBusyError struct {
	Extension, Tool, Key, Holder string
	Waited                       time.Duration
}

func (e *IdempotencyBusyError) Error() string {
	return fmt.Sprintf("extension %s: idempotency key %q is held by a call still running (%s) after waiting %s; retry with the same key for its result", e.Extension, e.Key, e.Holder, e.Waited)
}

// IdempotencyConflictError is a key reused for a different call: the tool or arguments
// differ from what the key recorded. Nothing is sent.
type IdempotencyConflictError struct {
	Extension, Tool, Key string
}

func (e *IdempotencyConflictError) Error() string {
	return fmt.Sprintf("extension %s: idempotency key %q was recorded for a different call; tool %q with these arguments needs a new key", e.Extension, e.Key, e.Tool)
}

// callDigest identifies a call for its key: the tool name and the arguments in a canonical
// form (keys sorted, no insignificant space, numbers as written), so a retry that
// re-encodes the same arguments matches and different arguments do not.
func callDigest(tool string, args json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("arguments are not JSON: %v", err)
	}
	canon, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(canon)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// idempotencyLease is how long a claim stays valid without renewal; the holder renews it
// every third of that while its call runs, so only a holder that stopped (crashed, hung
// machine) lets it lapse. A holder known dead on this machine is taken over at once.
const idempotencyLease = 15 * time.Second

// callIdempotent is Call for a call with an idempotency key. It claims the key first: a
// recorded result with the same digest is replayed without a call, a different digest
// (recorded or still running) is an *IdempotencyConflictError, and a key another call holds
// is waited for: its result is returned when recorded, or this call runs if that one failed
// or its holder died. A result the host accepted is recorded before it is returned; an error
// answer is not recorded (the retry calls again).
func (e *Extension) callIdempotent(ctx context.Context, c ToolCall, call func() (json.RawMessage, error)) (json.RawMessage, error) {
	st := e.host.opts.Idempotency
	if st == nil {
		return nil, fmt.Errorf("extension %s: an idempotency key needs a host with a store", e.name)
	}
	args := c.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	digest, err := callDigest(c.Name, args)
	if err != nil {
		return nil, err
	}
	key := c.IdempotencyKey
	bound := e.host.opts.RequestTimeout + e.host.opts.CancelGrace
	began := time.Now()
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	backoff := 5 * time.Millisecond
	noted := false
	for {
		wake := e.host.idem.watch(e.name, key) // before the claim: a run ending after it wakes us
		cl, err := st.ClaimKey(ctx, e.name, key, digest, idempotencyLease)
		if err != nil {
			return nil, err
		}
		if cl.Digest != digest {
			return nil, &IdempotencyConflictError{Extension: e.name, Tool: c.Name, Key: key}
		}
		switch {
		case cl.Recorded:
			return json.RawMessage(cl.Result), nil
		case cl.Token != "":
			return e.runClaimed(ctx, st, key, cl.Token, digest, call)
		}
		if !noted {
			noted = true
			if f := e.host.opts.OnIdempotencyWait; f != nil {
				f(e.name, key, cl.Holder)
			}
		}
		// Another host process gives no signal here: look again, backing off to 250 ms.
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			return nil, &IdempotencyBusyError{Extension: e.name, Tool: c.Name, Key: key, Holder: cl.Holder, Waited: time.Since(began).Round(time.Millisecond)}
		case <-wake:
		case <-time.After(backoff):
			backoff = min(2*backoff, 250*time.Millisecond)
		}
	}
}

// runClaimed runs the call while holding the key's claim, renewing its lease, then records
// the result (or releases the key on an error) and wakes this host's waiters.
func (e *Extension) runClaimed(ctx context.Context, st IdempotencyStore, key, token, digest string, call func() (json.RawMessage, error)) (json.RawMessage, error) {
	e.host.idem.hold(e.name, key)
	defer e.host.idem.done(e.name, key)
	stop := make(chan struct{})
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		t := time.NewTicker(idempotencyLease / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if ok, err := st.RenewClaim(context.WithoutCancel(ctx), e.name, key, token, idempotencyLease); err != nil || !ok {
					e.host.opts.Logf("extension %s: idempotency key %q: lease not renewed (lost %v, %v)", e.name, key, !ok, err)
				}
			}
		}
	}()
	out, err := call()
	close(stop)
	<-renewed
	// The record outlives a cancelled caller: the call ran, its result must be found.
	bg := context.WithoutCancel(ctx)
	if err != nil {
		if rerr := st.ReleaseClaim(bg, e.name, key, token); rerr != nil {
			e.host.opts.Logf("extension %s: idempotency key %q: %v", e.name, key, rerr)
		}
		return nil, err
	}
	if err := st.CompleteClaim(bg, e.name, key, token, digest, out); err != nil {
		return nil, err
	}
	return out, nil
}

// idemWaiters wakes the calls of this host waiting on a key when its holder here finishes
// (other host processes poll the store).
type idemWaiters struct {
	mu sync.Mutex
	ch map[string]chan struct{}
}

// hold registers this host's run of (ext, key), for its own waiters to watch.
func (w *idemWaiters) hold(ext, key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ch == nil {
		w.ch = map[string]chan struct{}{}
	}
	w.ch[ext+"\x00"+key] = make(chan struct{})
}

// watch is the channel closed when this host's run of (ext, key) ends; nil (never ready)
// when the holder is elsewhere or not registered yet: the waiter polls the store.
func (w *idemWaiters) watch(ext, key string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ch[ext+"\x00"+key]
}

func (w *idemWaiters) done(ext, key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := ext + "\x00" + key
	if c, ok := w.ch[k]; ok {
		close(c)
		delete(w.ch, k)
	}
}

type idempotencyKeyCtx struct{}

// WithIdempotencyKey makes the tool calls made with ctx carry key (a ToolCall's own
// IdempotencyKey wins): for callers that reach Extension.Call through layers that do not
// know the key (hooks, the reference session).
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}
