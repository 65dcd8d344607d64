package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/services"
)

// The console lists an input request's options and asks again, with CheckOption's verdict,
// while the line typed is none of their values; free text passes when allowed.
func TestPrompterAsksAgainUntilAnOptionIsChosen(t *testing.T) {
	var out bytes.Buffer
	p := newPrompter(&out, nil)
	lines := make(chan consoleLine, 3)
	for _, l := range []string{"feature", "dev"} {
		lines <- consoleLine{text: l}
	}
	close(lines)
	go p.feed(lines)
	desc := "unstable"
	q := services.InputRequest{Prompt: "Branch?", Options: []services.InputOption{{Value: "main", Label: "Main"}, {Value: "dev", Label: "Dev", Description: &desc}}}
	v, ok := p.Input(context.Background(), "ext", q)
	if !ok || v != "dev" {
		t.Fatalf("answer %q %v\n%s", v, ok, out.String())
	}
	for _, want := range []string{"  main – Main\n", "  dev – Dev: unstable\n", `  (the answer "feature" is not one of the options ("main", "dev"))`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the console lacks %q:\n%s", want, out.String())
		}
	}

	p2 := newPrompter(&out, nil)
	free := make(chan consoleLine, 1)
	free <- consoleLine{text: "feature"}
	close(free)
	go p2.feed(free)
	q.AllowFreeText = true
	if v, ok := p2.Input(context.Background(), "ext", q); !ok || v != "feature" {
		t.Fatalf("free text: %q %v", v, ok)
	}
}
