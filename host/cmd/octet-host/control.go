package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/octet-kit/octet/host"
)

// The control endpoint: a unix socket per running host (`run`, `dev`) in the state
// directory, through which `octet-host configure` reaches the extensions that host runs.
// Only this user reaches it: the directory is 0700, the socket 0600, and on Linux the
// peer's uid (SO_PEERCRED) must be ours. One bounded JSON request line, one answer line.
const (
	controlDirName   = "control"
	maxControlBytes  = 1 << 20 // a request or an answer: settings are bounded by MAX_MESSAGE_BYTES anyway
	controlReadLimit = 10 * time.Second
	controlSlots     = 4 // requests served at once; more get a "busy" answer
)

// controlRequest is one line from `octet-host configure`.
type controlRequest struct {
	Extension string `json:"extension"`
	// Settings, when present, are the object to deliver; absent, the host reloads NAME's
	// settings from its config files (user and workspace), as at start.
	Settings json.RawMessage `json:"settings,omitempty"`
	DryRun   bool            `json:"dry_run,omitempty"`
}

func controlDir(stateDir string) string { return filepath.Join(stateDir, controlDirName) }

// controlServer serves configure requests for one host until closed.
type controlServer struct {
	ln     net.Listener
	path   string
	h      *host.Host
	reload func(name string) (map[string]any, error)
	slots  chan struct{}
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
}

// listenControl opens <state>/control/<pid>.sock. reload gives NAME's settings as the host's
// config files say now (a configure request without settings).
func listenControl(stateDir string, h *host.Host, reload func(name string) (map[string]any, error)) (*controlServer, error) {
	dir := controlDir(stateDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	// An existing directory may have been made with other modes: make it ours only, and
	// refuse one another user owns (their socket would be ours to trust).
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := ownedByUs(dir); err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	path := filepath.Join(dir, strconv.Itoa(os.Getpid())+".sock")
	_ = os.Remove(path) // a stale socket of an earlier process with this pid
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &controlServer{ln: ln, path: path, h: h, reload: reload, slots: make(chan struct{}, controlSlots), ctx: ctx, cancel: cancel}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// Close stops accepting, cancels the requests in progress, waits for them, and removes
// the socket.
func (s *controlServer) Close() {
	s.ln.Close() // the unix listener unlinks its socket file
	s.cancel()
	s.wg.Wait()
}

func (s *controlServer) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		select {
		case s.slots <- struct{}{}:
		default:
			writeControl(c, controlError("", "busy", fmt.Sprintf("the host serves %d control requests at once; try again", controlSlots)))
			c.Close()
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() { <-s.slots }()
			defer c.Close()
			writeControl(c, s.handle(c))
		}()
	}
}

func (s *controlServer) handle(c net.Conn) map[string]any {
	if err := peerIsUs(c); err != nil {
		return controlError("", "forbidden", err.Error())
	}
	_ = c.SetReadDeadline(time.Now().Add(controlReadLimit))
	line, err := bufio.NewReaderSize(io.LimitReader(c, maxControlBytes+1), 64<<10).ReadBytes('\n')
	if len(line) > maxControlBytes {
		return controlError("", "request_too_large", fmt.Sprintf("a control request is at most %d bytes", maxControlBytes))
	}
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		return controlError("", "bad_request", fmt.Sprintf("want one JSON line: %v", err))
	}
	var req controlRequest
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return controlError("", "bad_request", fmt.Sprintf("request: %v", err))
	}
	e := s.h.Extension(req.Extension)
	if e == nil {
		return controlError(req.Extension, "no_extension", fmt.Sprintf("this host (pid %d) runs no extension %q", os.Getpid(), req.Extension))
	}
	var values map[string]any
	if req.Settings == nil {
		var err error
		if values, err = s.reload(req.Extension); err != nil {
			return controlError(req.Extension, "config_unreadable", err.Error())
		}
	} else {
		d := json.NewDecoder(bytes.NewReader(req.Settings))
		d.UseNumber()
		if err := d.Decode(&values); err != nil || values == nil {
			return controlError(req.Extension, "bad_request", fmt.Sprintf("settings must be a JSON object: %v", err))
		}
	}
	return configureOutcome(s.ctx, e, values, req.DryRun)
}

func controlError(ext, kind, msg string) map[string]any {
	return map[string]any{"configure": ext, "error": map[string]any{"kind": kind, "message": msg}}
}

func writeControl(c net.Conn, answer map[string]any) {
	answer["host_pid"] = os.Getpid()
	b, _ := json.Marshal(answer)
	_ = c.SetWriteDeadline(time.Now().Add(controlReadLimit))
	_, _ = c.Write(append(b, '\n'))
}
