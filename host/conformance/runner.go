package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Options configure a certification run.
type Options struct {
	// Only restricts the run to these check names (all when empty).
	Only []string
	// Skip leaves these check names out (used by the matrix for examples: heavy
	// checks run once per language fixture).
	Skip []string
	// PassEnv names environment variables passed to the extension besides the baseline.
	PassEnv []string
	// AnswerTimeout bounds the wait for one answer that should come promptly (default 10s).
	AnswerTimeout time.Duration
	// Secrets is the broker's contents (default: fixture.token = a fixed test value).
	Secrets map[string]string
	// Drain bounds the wait for an exit after EOF or a protocol error (default
	// SHUTDOWN_DRAIN_MS, 5 s); tests shorten it.
	Drain time.Duration
	// Calls bounds the generated valid and invalid calls per tool and check (default
	// DefaultCalls); Seed makes the generated arguments (exercise.go).
	Calls int
	Seed  int64
	// OnResult, when set, receives each check's result as it finishes (streaming reports).
	OnResult func(Result)
	// NoSandbox runs the extension unconfined (octet-host certify --no-sandbox); by default
	// every session starts in the sandbox its manifest declares, as the host starts it.
	NoSandbox bool
	// Jobs bounds how many extensions RunMatrix certifies at once (default: one per CPU).
	Jobs int
	// FaultSeed seeds the fault-injecting transport of the framing checks (cut places,
	// pauses, garbage); each check mixes in its name. The report notes each check's seed.
	FaultSeed uint64
}

// FixtureSecret is the value the default broker serves for the fixture's secret.
const FixtureSecret = "fixture-secret-value"

func (o *Options) answerTimeout() time.Duration {
	if o.AnswerTimeout > 0 {
		return o.AnswerTimeout
	}
	return 10 * time.Second
}

func (o *Options) drain() time.Duration {
	if o.Drain > 0 {
		return o.Drain
	}
	return ShutdownDrain
}

// T is what a running check uses: it starts sessions (each a fresh process) and
// collects what the report shows.
type T struct {
	Ctx      context.Context
	Ext      *Extension
	opts     *Options
	sessions []*Session
	notes    []string
	tools    []*ToolCalls // the exercise checks' per-tool tallies
	cleanups []func()     // run after the check's sessions are closed
}

// Timeout is the bound for one answer that should come promptly.
func (t *T) Timeout() time.Duration { return t.opts.answerTimeout() }

// Drain is the bound for an exit after EOF, a protocol error or shutdown.
func (t *T) Drain() time.Duration { return t.opts.drain() }

// Note adds a line to the check's detail (shown on pass too).
func (t *T) Note(format string, args ...any) { t.notes = append(t.notes, fmt.Sprintf(format, args...)) }

// Start starts a fresh process of the extension without a handshake.
func (t *T) Start(so StartOptions) (*Session, error) {
	scratch, err := os.MkdirTemp("", "octet-conformance-scratch-")
	if err != nil {
		return nil, err
	}
	if so.Secrets == nil {
		so.Secrets = t.opts.Secrets
	}
	so.Unconfined = so.Unconfined || t.opts.NoSandbox
	s, err := startSession(t.Ext, so, scratch, t.opts.PassEnv)
	if err != nil {
		os.RemoveAll(scratch)
		return nil, err
	}
	s.scratchDir = scratch
	t.sessions = append(t.sessions, s)
	return s, nil
}

// Initialize sends initialize and returns the raw response.
func (t *T) Initialize(s *Session, o InitOptions) (map[string]any, Response, error) {
	params := initParams(t.Ext, o)
	resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodInitialize, params)
	if err == nil && resp.Error == nil {
		// Bind the reverse services to what was negotiated, whatever the check then
		// makes of the answer.
		var r InitResult
		if json.Unmarshal(resp.Result, &r) == nil {
			api, _ := params["api_version"].(string)
			s.services.initialized(api, &r)
		}
	}
	return params, resp, err
}

// Open starts a fresh process and completes the handshake; any refusal or invalid
// answer is an error naming what was wrong.
func (t *T) Open(o InitOptions) (*Session, *InitResult, error) {
	s, err := t.Start(StartOptions{APIVersion: o.APIVersion, Grant: o.Grant})
	if err != nil {
		return nil, nil, err
	}
	params, resp, err := t.Initialize(s, o)
	if err != nil {
		return nil, nil, fmt.Errorf("initialize: %w", err)
	}
	if resp.Error != nil {
		return nil, nil, fail("initialize to succeed", "%s", resp.Error)
	}
	declared := o.Manifest
	if declared == nil {
		declared = t.Ext.Manifest.JSON
	}
	r, probs := validateInit(params, resp.Result, t.Ext, declared)
	if len(probs) > 0 {
		return nil, nil, fail("an initialize result the host accepts", "%s", strings.Join(probs, "; "))
	}
	return s, r, nil
}

// Certify runs every applicable check against ext, each on a fresh process.
//
// It first opens the extension once as an ordinary host would. When that fails because
// the process ends before it answers (it crashes on import, say), a check that passes
// anyway has only seen a dead process ("exited without answering" is what a version
// refusal looks like, too): its verdict is Error, never Pass.
func Certify(ctx context.Context, ext *Extension, opts Options) *Report {
	rep := &Report{Extension: ext.Manifest.Name, Language: ext.Language, Dir: ext.Dir}
	dead := preflight(ctx, ext, opts)
	only, skip := canonicalNames(opts.Only), canonicalNames(opts.Skip)
	for _, c := range Checks() {
		if len(only) > 0 && !slices.Contains(only, c.Name) || slices.Contains(skip, c.Name) {
			continue
		}
		res := RunCheck(ctx, c, ext, opts)
		if dead != "" && res.Status == Pass {
			res.Status = Error
			res.Detail = "could not reach the state it tests: " + dead + " (the check saw: " + res.Detail + ")"
		}
		rep.Results = append(rep.Results, res)
		if opts.OnResult != nil {
			opts.OnResult(res)
		}
	}
	return rep
}

// preflight opens ext once with an ordinary initialize; it returns why the extension is
// unreachable when its process ended before answering, or "" when it answered (an answer
// with an error is the checks' business, not a dead process).
func preflight(ctx context.Context, ext *Extension, opts Options) string {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	t := &T{Ctx: ctx, Ext: ext, opts: &opts}
	defer func() {
		for _, s := range t.sessions {
			s.close()
			os.RemoveAll(s.scratchDir)
		}
	}()
	s, err := t.Start(StartOptions{})
	if err != nil {
		return "the extension does not start: " + err.Error()
	}
	if _, _, err := t.Initialize(s, InitOptions{}); err != nil && s.WaitExit(2*time.Second) {
		why := "the extension exits before it answers an ordinary initialize (" + err.Error() + ")"
		if tail := s.StderrTail(); len(tail) > 0 {
			why += "; its last stderr line: " + tail[len(tail)-1]
		}
		return why
	}
	return ""
}

// RunCheck runs one check against ext.
func RunCheck(ctx context.Context, c *Check, ext *Extension, opts Options) Result {
	if opts.Secrets == nil {
		opts.Secrets = map[string]string{"fixture.token": FixtureSecret}
	}
	if ok, why := c.Applies(ext); !ok {
		return Result{Check: c, Status: Skip, Detail: why}
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	t := &T{Ctx: ctx, Ext: ext, opts: &opts}
	start := time.Now()
	err := runGuarded(c, t)
	res := Result{Check: c, Duration: time.Since(start)}
	// A violation on the stream fails every check, whatever it was probing.
	if err == nil {
		for _, s := range t.sessions {
			if v := s.Violations(); len(v) > 0 {
				err = fail("a clean JSON-RPC stream", "%s", strings.Join(v, "; "))
				break
			}
		}
	}
	if err != nil {
		if why, ok := isSkip(err); ok {
			res.Status, res.Detail = Skip, why
		} else {
			res.Status = Fail
			var f *Failure
			if errors.As(err, &f) {
				res.Expected, res.Detail = f.Expected, f.Got
			} else {
				res.Detail = err.Error()
			}
			for _, s := range t.sessions {
				if v := s.Violations(); len(v) > 0 && !strings.Contains(res.Detail, v[0]) {
					res.Detail += "; on the stream: " + strings.Join(v, "; ")
				}
			}
			if n := len(t.sessions); n > 0 {
				last := t.sessions[n-1]
				res.Frames, res.Stderr = last.Frames(), last.StderrTail()
			}
		}
	} else {
		res.Status = Pass
		res.Detail = strings.Join(t.notes, "; ")
	}
	res.Tools = sortedTallies(t.tools)
	for _, s := range t.sessions {
		s.close()
		os.RemoveAll(s.scratchDir)
	}
	for _, f := range t.cleanups {
		f()
	}
	return res
}

// runGuarded turns a panicking check into a failure naming the check.
func runGuarded(c *Check, t *T) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("check %s panicked: %v", c.Name, r)
		}
	}()
	return c.Run(t)
}

// wait waits up to the answer timeout for the response to request id.
func (t *T) wait(s *Session, id int64, ch <-chan Response) (Response, error) {
	ctx, cancel := context.WithTimeout(t.Ctx, t.Timeout())
	defer cancel()
	return s.Wait(ctx, id, ch)
}

// toolCall calls a tool and waits up to the answer timeout.
func (t *T) toolCall(s *Session, name string, args any) (Response, error) {
	return s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, map[string]any{"name": name, "arguments": args})
}

// toolResult is the 0.2/0.4 tool result shape.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError           bool            `json:"is_error"`
	StructuredContent json.RawMessage `json:"structured_content"`
}

// expectText checks a response is a successful tool result whose first text part is want.
func expectText(resp Response, want string) (*toolResult, error) {
	if resp.Error != nil {
		return nil, fail(fmt.Sprintf("a result with text %q", want), "%s", resp.Error)
	}
	var r toolResult
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		return nil, fail("a tool result", "%s (%v)", excerpt(resp.Result, 200), err)
	}
	if len(r.Content) == 0 || r.Content[0].Type != "text" || r.Content[0].Text != want || r.IsError {
		return nil, fail(fmt.Sprintf("a result with text %q", want), "%s", excerpt(resp.Result, 200))
	}
	return &r, nil
}

// expectCode checks a response is an error with the given code.
func expectCode(resp Response, code int64, what string) error {
	if resp.Error == nil {
		return fail(fmt.Sprintf("error %d (%s)", code, what), "%s", resp)
	}
	if resp.Error.Code != code {
		return fail(fmt.Sprintf("error %d (%s)", code, what), "%s", resp.Error)
	}
	return nil
}

// canonicalNames is names with every former check name replaced by its current one.
func canonicalNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i], _ = Canonical(n)
	}
	return out
}
