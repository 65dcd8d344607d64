package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/octet-kit/octet/host/services"
)

// askModes are the values of --ask: when confirmations and input requests the --script
// does not answer are put to the person at the terminal.
const (
	askAuto  = "auto"  // when stdin is a terminal
	askStdin = "stdin" // always, reading answers from stdin (a terminal or not)
	askNever = "never" // never: the default policy answers (deny, cancel)
)

// prompter is a services.Asker that writes the question to out and takes the next line
// typed as the answer. One question is open at a time (concurrent calls queue); a
// question ends unanswered when its request is cancelled or stdin ends.
//
// `call` feeds it every stdin line (feed); the `run` console offers it each line first
// (offer), and only a line typed while a question is open is an answer.
type prompter struct {
	out  io.Writer
	term *os.File // the terminal, for turning echo off while a secret is typed; nil: none

	ask     sync.Mutex // held for the whole of one question
	mu      sync.Mutex
	waiting bool
	answers chan string
	closed  chan struct{}
	once    sync.Once
}

func newPrompter(out io.Writer, term *os.File) *prompter {
	return &prompter{out: out, term: term, answers: make(chan string, 1), closed: make(chan struct{})}
}

// feed delivers stdin's lines as answers, in order, until EOF (call).
func (p *prompter) feed(lines <-chan consoleLine) {
	for l := range lines {
		select {
		case p.answers <- l.text:
		case <-p.closed:
			return
		}
	}
	p.close()
}

// offer hands line to the open question, if there is one (the run console).
func (p *prompter) offer(line string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.waiting || len(p.answers) > 0 {
		return false
	}
	p.answers <- line
	p.waiting = false
	return true
}

// close ends every open and future question unanswered (stdin ended).
func (p *prompter) close() { p.once.Do(func() { close(p.closed) }) }

func (p *prompter) question(ctx context.Context, text string, secret bool) (string, bool) {
	p.ask.Lock()
	defer p.ask.Unlock()
	if secret {
		if p.term == nil || setEcho(p.term, false) != nil {
			fmt.Fprintf(p.out, "%s\n  (a secret cannot be typed here without being shown: cancelled)\n", text)
			return "", false
		}
		defer func() { _ = setEcho(p.term, true); fmt.Fprintln(p.out) }()
	}
	p.mu.Lock()
	p.waiting = true
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.waiting = false
		p.mu.Unlock()
	}()
	_, _ = io.WriteString(p.out, text)
	if f, ok := p.out.(interface{ Flush() error }); ok {
		_ = f.Flush() // the redacting writer holds a line back until its newline
	}
	select {
	case a := <-p.answers:
		return a, true
	case <-ctx.Done():
		fmt.Fprintln(p.out, "\n  (the request ended before an answer: no answer)")
	case <-p.closed:
		select { // a line read before the end is still this question's answer
		case a := <-p.answers:
			return a, true
		default:
		}
		fmt.Fprintln(p.out, "\n  (stdin ended: no answer)")
	}
	return "", false
}

// Confirm asks "[ext] confirm “message” [y/N] "; y or yes (any case) confirms, anything
// else denies.
func (p *prompter) Confirm(ctx context.Context, ext string, q services.Confirmation) (bool, bool) {
	text := "[" + ext + "] confirm " + quoteText(titled(q.Title, q.Message))
	if q.Destructive {
		text += " (destructive)"
	}
	a, ok := p.question(ctx, text+" [y/N] ", false)
	if !ok {
		return false, false
	}
	a = strings.ToLower(strings.TrimSpace(a))
	return a == "y" || a == "yes", true
}

// Input asks "[ext] input “prompt”: " and returns the line typed (echo off for a secret).
// With options it lists them, one a line, and asks again while the line is none of their
// values (nor free text, when allowed): services.CheckOption's verdict, printed.
func (p *prompter) Input(ctx context.Context, ext string, q services.InputRequest) (string, bool) {
	text := "[" + ext + "] input " + quoteText(clean(q.Prompt))
	if q.Secret {
		text += " (secret, not shown)"
	}
	for _, o := range q.Options {
		text += "\n  " + clean(o.Value) + " – " + clean(o.Label)
		if o.Description != nil {
			text += ": " + clean(*o.Description)
		}
	}
	if len(q.Options) > 0 && q.AllowFreeText {
		text += "\n  (or any other text)"
	}
	if len(q.Options) > 0 {
		text += "\n"
	}
	for {
		a, ok := p.question(ctx, text+": ", q.Secret)
		if !ok {
			return "", false
		}
		err := services.CheckOption(q.Options, q.AllowFreeText, a)
		if err == nil {
			return a, true
		}
		text = "  (" + err.Message + ")\n[" + ext + "] input " + quoteText(clean(q.Prompt))
	}
}

// stdinAsker decides --ask for a verb reading stdin: the prompter, or nil for the default
// policy. A --script still answers first; the prompter gets only what it leaves open.
func stdinAsker(mode string, stdin io.Reader, out io.Writer) (*prompter, error) {
	f, _ := stdin.(*os.File)
	term := f != nil && isTerminal(f)
	switch mode {
	case askNever:
		return nil, nil
	case askAuto:
		if !term {
			return nil, nil
		}
	case askStdin:
	default:
		return nil, fmt.Errorf("--ask %q is not auto, stdin or never", mode)
	}
	if !term {
		f = nil
	}
	return newPrompter(out, f), nil
}
