package octet_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

// TestCancellationReachesTheHandler cancels a slow call: the host's call returns
// at once, the extension sees ctx.Done and answers -32800.
var _ = behaviour("CancellationReachesTheHandler", func(t *testing.T, h *octettest.Host) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- errOnly(h.CallTool(ctx, "slow", map[string]any{"ms": 60000})) }()
	waitFor(t, func() bool { return len(sentRequests(h, "tool/call")) == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call = %v", err)
	}
	waitFor(t, func() bool { return hasAnswer(h, -32800) })
	// The worker is free again.
	if _, err := h.CallTool(context.Background(), "echo", map[string]any{"value": 1}); err != nil {
		t.Fatal(err)
	}
})

func sentRequests(h *octettest.Host, method string) []octettest.Frame {
	var out []octettest.Frame
	for _, f := range h.Frames() {
		if f.Sent && strings.Contains(string(f.Raw), `"method":"`+method+`"`) {
			out = append(out, f)
		}
	}
	return out
}

func hasAnswer(h *octettest.Host, code int) bool {
	for _, f := range h.Frames() {
		if !f.Sent && strings.Contains(string(f.Raw), fmt.Sprintf(`"code":%d`, code)) {
			return true
		}
	}
	return false
}

// waitFor polls a condition on recorded frames (bounded); the frames arrive on
// the transport's goroutines, so there is no channel to wait on.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10s")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestStrayStdoutLeavesTheStreamIntact runs in a real process: fmt.Println and a
// child process's output go to stderr, never into the protocol.
func TestStrayStdoutLeavesTheStreamIntact(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "OCTET_SDK_TEST_EXTENSION=1")
	var stderr strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return stderr.Write(p) })
	h := octettest.StartProcess(t, cmd, octettest.Options{Manifest: manifest()})
	res, err := h.CallTool(context.Background(), "print_stdout", map[string]any{"text": "stray-line"})
	if err != nil || res.Text() != "printed" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := h.CallTool(context.Background(), "echo", map[string]any{"value": 2}); err != nil {
		t.Fatalf("stream broken after stray output: %v", err)
	}
	if err := h.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(stderr.String(), "stray-line") || !strings.Contains(stderr.String(), "child-output") {
		t.Fatalf("stray output did not reach stderr: %q", stderr.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestVersionNegotiation(t *testing.T) {
	t.Run("0.3 refused", func(t *testing.T) {
		h := octettest.Start(t, testExtension(octet.Options{}), octettest.Options{APIVersion: "0.3", Manifest: manifest(), SkipInitialize: true})
		we := wireError(t, errOnly(h.Initialize()), -32006)
		if !strings.Contains(we.Message, "0.3") || !strings.Contains(string(we.Data), `"requested":"0.3"`) {
			t.Fatalf("%v %s", we, we.Data)
		}
	})
	t.Run("pinned version differs", func(t *testing.T) {
		h := octettest.Start(t, testExtension(octet.Options{APIVersion: "0.2"}), octettest.Options{Manifest: manifest(), SkipInitialize: true})
		wireError(t, errOnly(h.Initialize()), -32006)
	})
	t.Run("unknown required feature", func(t *testing.T) {
		h := octettest.Start(t, testExtension(octet.Options{}), octettest.Options{Manifest: manifest(), SkipInitialize: true})
		p := h.InitializeParams()
		p["protocol"].(map[string]any)["required_features"] = []string{"request_cancellation", "content_parts", "runtime_commands"}
		err := h.Call(context.Background(), "initialize", p, nil)
		if we := wireError(t, err, -32602); !strings.Contains(we.Message, "runtime_commands") {
			t.Fatalf("message does not name the feature: %v", we)
		}
	})
	t.Run("kv only in 0.4, unknown optional ignored", func(t *testing.T) {
		m := manifest()
		m["api_version"] = "0.2"
		ext := testExtension(octet.Options{})
		octettest.Start(t, ext, octettest.Options{APIVersion: "0.2", Manifest: m,
			OptionalFeatures: []string{"kv", "request_progress", "teleport"}})
		if got := strings.Join(ext.NegotiatedFeatures(), ","); got != "content_parts,request_cancellation,request_progress" {
			t.Fatalf("features = %s", got)
		}
	})
	t.Run("manifest mismatch", func(t *testing.T) {
		m := manifest()
		m["contributes"].(map[string]any)["tools"] = []string{"echo"}
		h := octettest.Start(t, testExtension(octet.Options{}), octettest.Options{Manifest: m, SkipInitialize: true,
			OptionalFeatures: []string{}})
		if we := wireError(t, errOnly(h.Initialize()), -32602); !strings.Contains(we.Message, `"typed" is registered but not declared`) {
			t.Fatalf("%v", we)
		}
	})
}

// TestAPI01 serves the frozen wire: integer ids, one worker, text results, no
// protocol block, no output schemas.
func TestAPI01(t *testing.T) {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "hello_world", Description: "Greet"},
		func(ctx context.Context, a struct {
			Name string `json:"name"`
		}) (octet.Result, error) {
			res, err := ext.UI.Confirm(ctx, "greet?")
			ok := res.Confirmed
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text(fmt.Sprintf("Hello, %s! (%v)", a.Name, ok)), nil
		})
	m := map[string]any{"name": "hello", "version": "0.1.0", "api_version": "0.1",
		"contributes": map[string]any{"tools": []string{"hello_world"}, "confirmations": true}}
	h := octettest.Start(t, ext, octettest.Options{APIVersion: "0.1", Manifest: m, SkipInitialize: true,
		Script: octettest.Script{Confirm: func(string) bool { return true }}})
	res, err := h.Initialize()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res["protocol"]; ok || ext.NegotiatedConcurrency() != 1 {
		t.Fatalf("0.1 result = %v, concurrency %d", res, ext.NegotiatedConcurrency())
	}
	var out map[string]any
	if err := h.Call(context.Background(), "tool/call", map[string]any{"name": "hello_world", "arguments": map[string]any{"name": "Ada"}}, &out); err != nil {
		t.Fatal(err)
	}
	if out["content"] != "Hello, Ada! (true)" {
		t.Fatalf("0.1 result = %v", out)
	}
	conf := h.Received("confirmation/request")
	if len(conf) != 1 {
		t.Fatalf("confirmations: %v", conf)
	}
	if _, isNum := conf[0]["id"].(float64); !isNum {
		t.Fatalf("0.1 ids must be integers: %v", conf[0]["id"])
	}
	if _, has := conf[0]["params"].(map[string]any)["parent_request_id"]; has {
		t.Fatal("0.1 confirmation carries parent_request_id")
	}
}

// TestAdmissionQueueAnswersOverloaded fills one worker and a queue of two; the
// next request is refused at once, without stalling the others.
func TestAdmissionQueueAnswersOverloaded(t *testing.T) {
	ext := testExtension(octet.Options{MaxConcurrentRequests: 1, MaxPendingRequests: 2})
	h := octettest.Start(t, ext, octettest.Options{Manifest: manifest()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = h.CallTool(ctx, "slow", map[string]any{"ms": 60000}) }()
	}
	waitFor(t, func() bool { return len(sentRequests(h, "tool/call")) == 3 })
	// The third may still be on its way into the queue: retry until refused.
	var err error
	waitFor(t, func() bool {
		_, err = h.CallTool(context.Background(), "echo", map[string]any{"value": 1})
		return err != nil
	})
	if we := wireError(t, err, -32001); !strings.Contains(string(we.Data), `"limit":2`) {
		t.Fatalf("overloaded data = %s", we.Data)
	}
	cancel()
	wg.Wait()
}

// TestShutdownDrainIsBounded: a slow handler is cancelled at the
// drain deadline (answering -32800), a stuck on_shutdown is abandoned, and the
// acknowledgement still arrives.
func TestShutdownDrainIsBounded(t *testing.T) {
	ext := testExtension(octet.Options{ShutdownDrain: 200 * time.Millisecond})
	ran := make(chan struct{})
	ext.OnShutdown(func(ctx context.Context) {
		close(ran)
		select {} // stuck forever
	})
	h := octettest.Start(t, ext, octettest.Options{Manifest: manifest()})
	slow := make(chan error, 1)
	go func() { slow <- errOnly(h.CallTool(context.Background(), "slow", map[string]any{"ms": 60000})) }()
	waitFor(t, func() bool { return len(sentRequests(h, "tool/call")) == 1 })
	start := time.Now()
	if err := h.Call(context.Background(), "shutdown", map[string]any{"reason": "reload"}, nil); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("shutdown took %v", took)
	}
	<-ran
	// The drain cancelled it, not the host: the message says so.
	if we := wireError(t, <-slow, -32800); we.Message != "request cancelled: the extension is shutting down" {
		t.Fatalf("drained call answered %q", we.Message)
	}
	if err := h.Wait(); err != nil {
		t.Fatalf("Serve = %v", err)
	}
	// New requests after shutdown are refused (the connection is closed).
	if _, err := h.CallTool(context.Background(), "echo", map[string]any{"value": 1}); !errors.Is(err, jsonrpc.ErrTransport) {
		t.Fatalf("after shutdown: %v", err)
	}
}

// TestShutdownAdmitsWhatWasReadBeforeIt pipelines calls and then shutdown: every call
// the extension read before the shutdown is served (drained), none refused -32003,
// although each runs on its own goroutine and may reach admission after the
// shutdown's handler has started.
func TestShutdownAdmitsWhatWasReadBeforeIt(t *testing.T) {
	ext := testExtension(octet.Options{ShutdownDrain: time.Minute})
	h := octettest.Start(t, ext, octettest.Options{Manifest: manifest()})
	const n = 32
	errs := make(chan error, n)
	for i := range n {
		go func() { errs <- errOnly(h.CallTool(context.Background(), "echo", map[string]any{"value": i})) }()
	}
	waitFor(t, func() bool { return len(sentRequests(h, "tool/call")) == n })
	if err := h.Call(context.Background(), "shutdown", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatalf("a call read before the shutdown: %v", err)
		}
	}
}

// TestProcessExitsOnEOF closes the extension's stdin: it drains and exits 0.
func TestProcessExitsOnEOF(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "OCTET_SDK_TEST_EXTENSION=1")
	h := octettest.StartProcess(t, cmd, octettest.Options{Manifest: manifest()})
	h.CloseInput()
	if err := h.Wait(); err != nil {
		t.Fatalf("exit after EOF = %v, want status 0", err)
	}
}

func TestShutdownRefusesNewWork(t *testing.T) {
	// The drain only bounds how long the held call may take to be released below.
	ext := testExtension(octet.Options{ShutdownDrain: time.Minute})
	// The in-flight call is held until the refusal has been observed (not a sleep that
	// must outlast it), then released to finish within the drain.
	release := make(chan struct{})
	octet.Tool(ext, octet.ToolSpec{Name: "hold", Description: "Wait for the test's release"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			select {
			case <-release:
				return octet.Text("released"), nil
			case <-ctx.Done():
				return octet.Result{}, ctx.Err()
			}
		})
	m := manifest()
	contributes := m["contributes"].(map[string]any)
	contributes["tools"] = append(contributes["tools"].([]string), "hold")
	h := octettest.Start(t, ext, octettest.Options{Manifest: m})
	slow := make(chan error, 1)
	go func() { slow <- errOnly(h.CallTool(context.Background(), "hold", nil)) }()
	waitFor(t, func() bool { return len(sentRequests(h, "tool/call")) == 1 })
	shut := make(chan error, 1)
	go func() { shut <- h.Call(context.Background(), "shutdown", map[string]any{}, nil) }()
	waitFor(t, func() bool { return len(sentRequests(h, "shutdown")) == 1 })
	var err error
	waitFor(t, func() bool {
		_, err = h.CallTool(context.Background(), "echo", map[string]any{"value": 1})
		return err != nil
	})
	wireError(t, err, -32003)
	close(release)
	if err := <-slow; err != nil {
		t.Fatalf("in-flight work within the drain must finish: %v", err)
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
}
