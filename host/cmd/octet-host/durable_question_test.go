package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/store"
)

// watchedHost is `octet-host run` as a child process whose stdout the test reads as it
// comes: waitFor blocks on the pipe until a text appears (the deadline only fails the test).
type watchedHost struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex
	buf   bytes.Buffer
	seen  int // waitFor looks after this offset
	more  chan struct{}
	ended chan struct{}
}

func startWatchedHost(t *testing.T, args ...string) *watchedHost {
	t.Helper()
	h := &watchedHost{cmd: exec.Command(os.Args[0], args...), more: make(chan struct{}, 1), ended: make(chan struct{})}
	h.cmd.Env = append(os.Environ(), hostChildEnv+"=1", "OCTET_TRUSTED_EXTENSIONS=")
	out, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.cmd.Stderr = h.cmd.Stdout
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(h.ended)
		b := make([]byte, 4096)
		for {
			n, err := out.Read(b)
			h.mu.Lock()
			h.buf.Write(b[:n])
			h.mu.Unlock()
			select {
			case h.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { _ = h.cmd.Process.Kill(); _ = h.cmd.Wait() })
	return h
}

// waitFor returns the rest of the line holding text, first found after the last match.
func (h *watchedHost) waitFor(t *testing.T, text string) string {
	t.Helper()
	deadline := time.NewTimer(60 * time.Second)
	defer deadline.Stop()
	for {
		h.mu.Lock()
		all := h.buf.String()
		i := strings.Index(all[h.seen:], text)
		if i >= 0 {
			start := strings.LastIndexByte(all[:h.seen+i], '\n') + 1
			end := strings.IndexByte(all[h.seen+i:], '\n')
			if end < 0 {
				end = len(all) - h.seen - i
			}
			line := all[start : h.seen+i+end]
			h.seen += i + len(text)
			h.mu.Unlock()
			return line
		}
		h.mu.Unlock()
		select {
		case <-h.more:
		case <-h.ended:
			h.mu.Lock()
			all := h.buf.String()
			h.mu.Unlock()
			if !strings.Contains(all[h.seen:], text) {
				t.Fatalf("the host ended before %q; its output:\n%s", text, all)
			}
		case <-deadline.C:
			t.Fatalf("no %q within 60s; the host's output:\n%s", text, all)
		}
	}
}

func (h *watchedHost) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(h.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// TestConfirmationAskedBeforeSIGKILLIsAnsweredAfterTheRestartOnce is issue 28's done-when:
// a host asks a confirmation on its console and is SIGKILLed while the question waits; the
// next host on the same state directory lists it, takes the answer once (the same answer
// again is repeated, another is refused as question_answered), hands it to the extension's
// identical confirmation exactly once (the next one is asked afresh: no asker, denied), and
// the store holds one answer. Without durable questions the second host lists nothing.
func TestConfirmationAskedBeforeSIGKILLIsAnsweredAfterTheRestartOnce(t *testing.T) {
	state := t.TempDir()
	ext := testext.Write(t, t.TempDir(), testext.Ext{Name: "asker", Tools: []string{"confirm"}, Extra: "confirmations = true\n"})
	const call = `call confirm {"message":"Drop the table?"}`

	first := startWatchedHost(t, "run", "--no-sandbox", "--state", state, "--ask", "stdin", ext)
	first.waitFor(t, "[asker] ready")
	first.send(t, call)
	first.waitFor(t, `confirm “Drop the table?” [y/N]`)
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()

	second := startWatchedHost(t, "run", "--no-sandbox", "--state", state, "--ask", "never", ext)
	second.waitFor(t, "[asker] ready")
	second.send(t, "questions")
	var listed struct {
		Question struct{ ID, Kind, Extension, Message string }
	}
	line := second.waitFor(t, `{"question":`)
	if err := json.Unmarshal([]byte(line), &listed); err != nil {
		t.Fatalf("questions line %q: %v", line, err)
	}
	q := listed.Question
	if q.Kind != "confirm" || q.Extension != "asker" || q.Message != "Drop the table?" || !strings.HasPrefix(q.ID, "q-") {
		t.Fatalf("listed %+v", q)
	}
	second.send(t, "answer "+q.ID+" yes")
	if line := second.waitFor(t, `{"answer":"`+q.ID+`"`); line != `{"answer":"`+q.ID+`","repeated":false,"reply":{"confirmed":true}}` {
		t.Fatalf("first answer: %s", line)
	}
	second.send(t, "answer "+q.ID+" yes")
	if line := second.waitFor(t, `{"answer":"`+q.ID+`"`); line != `{"answer":"`+q.ID+`","repeated":true,"reply":{"confirmed":true}}` {
		t.Fatalf("repeated answer: %s", line)
	}
	second.send(t, "answer "+q.ID+" no")
	if line := second.waitFor(t, `{"answer":"`+q.ID+`"`); !strings.Contains(line, `"kind":"question_answered"`) {
		t.Fatalf("a different answer: %s", line)
	}
	// The extension asks again (its process died with the first host): the stored answer.
	second.send(t, call)
	if line := second.waitFor(t, `confirm “Drop the table?” →`); !strings.Contains(line, "confirmed (answered after a host restart") {
		t.Fatalf("the asked-again confirmation: %s", line)
	}
	if line := second.waitFor(t, `"text"`); !strings.Contains(line, `\"confirmed\":true`) {
		t.Fatalf("the tool's result: %s", line)
	}
	second.send(t, call)
	if line := second.waitFor(t, `confirm “Drop the table?” →`); !strings.Contains(line, "denied") {
		t.Fatalf("the answer was handed out twice: %s", line)
	}
	second.send(t, "questions")
	second.waitFor(t, "questions: none left open by a stopped host")
	second.send(t, "quit")
	<-second.ended
	if err := second.cmd.Wait(); err != nil {
		t.Fatalf("second host: %v", err)
	}

	st, err := store.Open(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.DB().Query(`SELECT id, state, answer FROM interactions`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id, state string
		var answer sql.NullString
		if err := rows.Scan(&id, &state, &answer); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %s %s", id, state, answer.String))
	}
	if want := q.ID + ` delivered {"confirmed":true}`; len(got) != 1 || got[0] != want {
		t.Fatalf("stored questions %q, want [%s]", got, want)
	}
}
