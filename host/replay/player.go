// Package replay plays a recorded session's host->extension frames against an extension,
// typically a new build of the one recorded, and compares what the extension sends back
// with what it sent then. `octet-host replay` prints the comparison; the inspector shows
// the same Report. What the comparison ignores, and why, is the normalisation in
// normalize.go (docs/host.md "Replay").
package replay

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Options say what to replay against.
type Options struct {
	// Dir is the extension directory to start (its extension.toml's entrypoint).
	Dir string
	// StateDir holds the replay's scratch directory and stderr log; use the recording's
	// state directory, so scratch paths have the recorded layout (normalize.go rule 3
	// ignores the instance id in them).
	StateDir string
	// Workspace is the process's working directory and the workspace the host frames
	// name; empty is the current directory.
	Workspace string
	// PassEnv grants host variables by name, as --pass-env does.
	PassEnv []string
	// Timeout bounds each wait for the extension (an answer the next frame depends on, the
	// exit after shutdown); 0 is 30 s. A wait that runs out is a note, and the replay goes on.
	Timeout time.Duration
}

// Result is one replay: the recorded frames it compared (the first process generation),
// everything exchanged in the replay, and their comparison.
type Result struct {
	Recorded []Frame
	Replayed []Frame
	Report   *Report
}

// Session reads a recording from the state store and replays it (Run).
func Session(ctx context.Context, st *store.Store, sessionID string, opts Options) (*Result, error) {
	frames, found, err := st.Frames(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("replay: no recorded session %q (list them with `octet-host inspect`)", sessionID)
	}
	recorded := make([]Frame, 0, len(frames))
	for _, f := range frames {
		recorded = append(recorded, Frame{Direction: f.Direction, Frame: f.Frame})
	}
	return Run(ctx, recorded, opts)
}

// Run starts the extension in opts.Dir and plays it the host->extension frames of
// recorded in order: before each, it waits for the answers that came before it in the
// recording (the responses to earlier host requests, the extension's own earlier
// requests); the extension's requests are answered with the host's recorded answers,
// matched by method and order. Then it compares (Compare) and returns the Result. An
// error means the replay could not run at all (no recording, a manifest that does not
// load, a process that does not start).
func Run(ctx context.Context, recorded []Frame, opts Options) (*Result, error) {
	recorded = firstGeneration(recorded)
	if len(recorded) == 0 {
		return nil, errors.New("replay: the recording has no frames of the wire")
	}
	m, diags := manifest.Load(filepath.Join(opts.Dir, manifest.FileName), manifest.Options{OctetVersion: host.OctetVersion})
	if m == nil {
		msgs := make([]string, len(diags))
		for i, d := range diags {
			msgs[i] = d.String()
		}
		return nil, fmt.Errorf("replay: %s is not a valid extension:\n%s", opts.Dir, strings.Join(msgs, "\n"))
	}
	ws := opts.Workspace
	if ws == "" {
		var err error
		if ws, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	ws, _ = filepath.Abs(ws)
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.StateDir == "" {
		opts.StateDir = os.TempDir()
	}
	oldDir, oldWS := recordedPlaces(recorded)
	rewrite := rewriter(oldDir, m.Dir, oldWS, ws)
	var b [8]byte
	_, _ = rand.Read(b[:])
	proc, err := process.Start(process.Spec{
		Name: m.Name, Dir: m.Dir, ManifestPath: m.Path, Command: m.Entrypoint.Command, Args: m.Entrypoint.Args,
		Workspace: ws, APIVersion: m.APIVersion, PassEnv: opts.PassEnv,
		SSHAuthSock: contains(m.Capabilities.Environment, "SSH_AUTH_SOCK"),
		ScratchDir:  filepath.Join(opts.StateDir, "scratch", m.Name, m.Name+"-"+hex.EncodeToString(b[:])+"-1"),
		LogPath:     filepath.Join(opts.StateDir, "logs", "replay", m.Name+".log"),
	})
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	p := newPlayer(ctx, proc, recorded, opts.Timeout)
	go p.read()
	p.play(rewrite)
	p.finish()
	res := &Result{Recorded: recorded, Replayed: p.snapshot()}
	res.Report = Compare(recorded, res.Replayed, Normalizer{Dirs: []string{oldDir, m.Dir}})
	res.Report.Notes = append(res.Report.Notes, p.notes...)
	return res, nil
}

// firstGeneration keeps the frames of the wire (not host notes) up to a second
// initialize: a recording that spans a restart is replayed up to the restart.
func firstGeneration(frames []Frame) []Frame {
	var out []Frame
	inits := 0
	for _, f := range frames {
		if f.Direction != recording.HostToExt && f.Direction != recording.ExtToHost {
			continue
		}
		if f.Direction == recording.HostToExt && methodOf(f.Frame) == "initialize" {
			if inits++; inits > 1 {
				break
			}
		}
		out = append(out, f)
	}
	return out
}

// recordedPlaces reads the recorded extension directory and workspace root from the
// recorded initialize request.
func recordedPlaces(frames []Frame) (dir, workspace string) {
	for _, f := range frames {
		var req struct {
			Method string `json:"method"`
			Params struct {
				Extension struct {
					Dir string `json:"dir"`
				} `json:"extension"`
				Workspace struct {
					Root string `json:"root"`
				} `json:"workspace"`
			} `json:"params"`
		}
		if f.Direction == recording.HostToExt && json.Unmarshal(f.Frame, &req) == nil && req.Method == "initialize" {
			return req.Params.Extension.Dir, req.Params.Workspace.Root
		}
	}
	return "", ""
}

// rewriter makes the host's frames name the directory and workspace of this run: the
// recorded paths are replaced where they occur in JSON strings (escaped as JSON writes
// them), in one pass, the extension directory first (it may lie inside the workspace).
func rewriter(oldDir, newDir, oldWS, newWS string) func([]byte) []byte {
	var pairs []string
	esc := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b[1 : len(b)-1])
	}
	if oldDir != "" && oldDir != newDir {
		pairs = append(pairs, esc(oldDir), esc(newDir))
	}
	if oldWS != "" && oldWS != newWS {
		pairs = append(pairs, esc(oldWS), esc(newWS))
	}
	if len(pairs) == 0 {
		return func(b []byte) []byte { return b }
	}
	r := strings.NewReplacer(pairs...)
	return func(b []byte) []byte { return []byte(r.Replace(string(b))) }
}

// player drives one replay.
type player struct {
	ctx      context.Context
	proc     *process.Process
	recorded []Frame
	timeout  time.Duration

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced on every frame read, and at EOF
	exchanged []Frame
	responded map[string]bool // host request ids the extension answered
	requests  int             // extension->host requests seen
	eof       bool
	answers   map[string][]json.RawMessage // recorded host answers by the request's method, in order
	notes     []string
	writeMu   sync.Mutex
}

func newPlayer(ctx context.Context, proc *process.Process, recorded []Frame, timeout time.Duration) *player {
	p := &player{ctx: ctx, proc: proc, recorded: recorded, timeout: timeout, changed: make(chan struct{}),
		responded: map[string]bool{}, answers: map[string][]json.RawMessage{}}
	// The host's recorded answer to each extension request, by the request's method.
	reqMethod := map[string]string{}
	for _, f := range recorded {
		env := envelope(f.Frame)
		switch {
		case f.Direction == recording.ExtToHost && env.Method != "" && env.hasID():
			reqMethod[string(env.ID)] = env.Method
		case f.Direction == recording.HostToExt && env.Method == "" && env.hasID():
			if m, ok := reqMethod[string(env.ID)]; ok {
				p.answers[m] = append(p.answers[m], f.Frame)
				delete(reqMethod, string(env.ID))
			}
		}
	}
	return p
}

type env struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func (e env) hasID() bool { return len(e.ID) > 0 && string(e.ID) != "null" }

func envelope(frame []byte) env {
	var e env
	_ = json.Unmarshal(frame, &e)
	return e
}

func methodOf(frame []byte) string { return envelope(frame).Method }

// read takes the extension's frames until EOF, answering its requests at once.
func (p *player) read() {
	r := bufio.NewReaderSize(p.proc.Stdout(), 64<<10)
	var line []byte
	over := 0 // bytes of a line past MAX_MESSAGE_BYTES, which are not kept
	for {
		chunk, err := r.ReadSlice('\n')
		if over == 0 && len(line)+len(chunk) <= protocol.MaxMessageBytes+1 {
			line = append(line, chunk...)
		} else {
			over += len(line) + len(chunk)
			line = line[:0]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over > 0 {
			// Compared as text, so an oversized answer is a difference, never a truncated frame.
			p.received([]byte(fmt.Sprintf("(a line of %d bytes, over MAX_MESSAGE_BYTES)", over)))
		} else if frame := bytes.TrimRight(line, "\r\n"); len(frame) > 0 {
			p.received(append([]byte(nil), frame...))
		}
		line, over = line[:0], 0
		if err != nil {
			p.mu.Lock()
			p.eof = true
			p.wakeLocked()
			p.mu.Unlock()
			return
		}
	}
}

func (p *player) wakeLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *player) received(frame []byte) {
	e := envelope(frame)
	p.mu.Lock()
	p.exchanged = append(p.exchanged, Frame{Direction: recording.ExtToHost, Frame: frame})
	var answer []byte
	switch {
	case e.Method == "" && e.hasID():
		p.responded[string(e.ID)] = true
	case e.Method != "" && e.hasID():
		p.requests++
		answer = p.answerLocked(e)
	}
	p.wakeLocked()
	p.mu.Unlock()
	if answer != nil {
		p.send(answer)
	}
}

// answerLocked is the recorded host answer to the next request of this method, with the
// extension's id of this run; a request the recording has no answer for gets an error.
func (p *player) answerLocked(e env) []byte {
	queue := p.answers[e.Method]
	if len(queue) == 0 {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": e.ID,
			"error": map[string]any{"code": -32603, "message": "replay: the recording has no host answer for another " + e.Method}})
		p.notes = append(p.notes, "the extension sent a "+e.Method+" request the recording has no answer for; it was answered -32603")
		return b
	}
	p.answers[e.Method] = queue[1:]
	var resp map[string]json.RawMessage
	if json.Unmarshal(queue[0], &resp) != nil {
		return queue[0]
	}
	resp["id"] = e.ID
	b, _ := json.Marshal(resp)
	return b
}

func (p *player) send(frame []byte) {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.mu.Lock()
	p.exchanged = append(p.exchanged, Frame{Direction: recording.HostToExt, Frame: frame})
	p.mu.Unlock()
	_, _ = p.proc.Stdin().Write(append(append([]byte(nil), frame...), '\n'))
}

// play sends the recorded host frames in order; answers to extension requests are not
// sent from the recording but when the request comes (received).
func (p *player) play(rewrite func([]byte) []byte) {
	needResponses := map[string]bool{}
	needRequests := 0
	for _, f := range p.recorded {
		e := envelope(f.Frame)
		if f.Direction == recording.ExtToHost {
			if e.Method == "" && e.hasID() {
				needResponses[string(e.ID)] = true
			} else if e.Method != "" && e.hasID() {
				needRequests++
			}
			continue
		}
		if e.Method == "" { // the host's answer to an extension request: sent on demand
			continue
		}
		if !p.waitFor(needResponses, needRequests, e.Method) {
			return
		}
		p.send(rewrite(f.Frame))
	}
	p.waitFor(needResponses, needRequests, "")
}

// waitFor waits until the extension has answered every request in ids and sent at least
// requests requests of its own, or ended, or the timeout runs out. It returns false when
// the extension ended (nothing more can be sent).
func (p *player) waitFor(ids map[string]bool, requests int, before string) bool {
	deadline := time.NewTimer(p.timeout)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		missing := []string{}
		for id := range ids {
			if !p.responded[id] {
				missing = append(missing, id)
			}
		}
		ok := len(missing) == 0 && p.requests >= requests
		eof, ch := p.eof, p.changed
		p.mu.Unlock()
		if ok {
			return true
		}
		if eof {
			select { // the exit status, when it follows the EOF at once
			case <-p.proc.Done():
			case <-time.After(time.Second):
			}
			msg := fmt.Sprintf("the extension closed its stdout (%s) while the recording had more", p.proc.ExitDescription())
			if tail := p.proc.StderrTail(); len(tail) > 0 {
				msg += "; its last stderr lines:\n    " + strings.Join(process.Readable(tail[max(0, len(tail)-10):]), "\n    ")
			}
			p.note("%s", msg)
			return false
		}
		select {
		case <-ch:
		case <-p.ctx.Done():
			p.note("replay interrupted")
			return false
		case <-deadline.C:
			what := "the end of the recording"
			if before != "" {
				what = "sending " + before
			}
			p.note("waited %s for answers to requests %v (or the extension's own requests) before %s; went on", p.timeout, missing, what)
			return true
		}
	}
}

func (p *player) note(format string, args ...any) {
	p.mu.Lock()
	p.notes = append(p.notes, fmt.Sprintf(format, args...))
	p.mu.Unlock()
}

// finish closes the extension's stdin and waits (bounded) for it to exit, then stops it.
func (p *player) finish() {
	_ = p.proc.CloseStdin()
	select {
	case <-p.proc.Done():
	case <-time.After(p.timeout):
		p.note("the extension did not exit within %s of the end of the replay; stopped", p.timeout)
	}
	p.proc.Stop(2 * time.Second)
	// Wait for the reader to see EOF so every frame is in.
	for {
		p.mu.Lock()
		eof, ch := p.eof, p.changed
		p.mu.Unlock()
		if eof {
			return
		}
		select {
		case <-ch:
		case <-time.After(p.timeout):
			return
		}
	}
}

func (p *player) snapshot() []Frame {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Frame(nil), p.exchanged...)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// RecordedDir is the extension directory a recording was made from (its initialize
// request's extension.dir), or "".
func RecordedDir(frames []Frame) string {
	dir, _ := recordedPlaces(frames)
	return dir
}
