package host

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// contributions are what a generation registered; a restart or reload must keep them
// (negotiated dynamic tools may change; static tools, commands, hooks and UI may not).
type contributions struct {
	dynamic  bool
	tools    []string
	commands []string
	hooks    []string
	ui       []string
}

func contributionsOf(g *generation) *contributions {
	c := &contributions{dynamic: g.neg.features[string(protocol.FeatureDynamicTools)], hooks: sorted(g.neg.hooks), ui: sorted(g.neg.ui)}
	for _, t := range g.neg.tools {
		c.tools = append(c.tools, t.Name)
	}
	for _, cmd := range g.neg.commands {
		c.commands = append(c.commands, cmd.Name)
	}
	c.tools, c.commands = sorted(c.tools), sorted(c.commands)
	return c
}

func sorted(l []string) []string {
	out := append([]string{}, l...)
	sort.Strings(out)
	return out
}

// checkCompatible refuses a candidate whose contributions differ from the registered ones.
func (e *Extension) checkCompatible(g *generation) error {
	e.mu.Lock()
	old := e.contribs
	e.mu.Unlock()
	if old == nil {
		return nil
	}
	c := contributionsOf(g)
	var diffs []string
	if !old.dynamic && !c.dynamic && strings.Join(old.tools, ",") != strings.Join(c.tools, ",") {
		diffs = append(diffs, fmt.Sprintf("tools %v -> %v", old.tools, c.tools))
	}
	if strings.Join(old.commands, ",") != strings.Join(c.commands, ",") {
		diffs = append(diffs, fmt.Sprintf("commands %v -> %v", old.commands, c.commands))
	}
	if strings.Join(old.hooks, ",") != strings.Join(c.hooks, ",") {
		diffs = append(diffs, fmt.Sprintf("hooks %v -> %v", old.hooks, c.hooks))
	}
	if strings.Join(old.ui, ",") != strings.Join(c.ui, ",") {
		diffs = append(diffs, fmt.Sprintf("ui %v -> %v", old.ui, c.ui))
	}
	if len(diffs) > 0 {
		return &StartError{Kind: kindManifest, Message: "re-registration required: contributions changed (" + strings.Join(diffs, "; ") + "); restart the host to accept them"}
	}
	return nil
}

// Reload starts and fully initialises a candidate from the manifest on disk while the old
// generation keeps serving. On success new calls cut over atomically and the old generation
// stops within bounds; on any failure the old generation stays active and the error says why.
// Reloading a parked or failed extension is how an operator retries it.
func (e *Extension) Reload(ctx context.Context) error {
	e.lifecycle.Lock()
	defer e.lifecycle.Unlock()
	e.mu.Lock()
	if e.stopped {
		e.mu.Unlock()
		return &UnavailableError{Extension: e.name, State: string(StateStopped)}
	}
	e.mu.Unlock()
	cand, err := e.startCandidate(ctx, nil)
	if err != nil {
		return fmt.Errorf("reload of %s failed; the old generation keeps serving: %w", e.name, err)
	}
	if err := e.checkCompatible(cand); err != nil {
		cand.stop("reload")
		return fmt.Errorf("reload of %s refused; the old generation keeps serving: %w", e.name, err)
	}
	e.mu.Lock()
	old := e.cur
	e.mu.Unlock()
	// The catalog swap, the cut-over and the reset failure budget are one step.
	if err := e.install(cand, func() { e.failures = 0 }); err != nil {
		cand.stop("reload")
		return fmt.Errorf("reload of %s failed; the old generation keeps serving: %w", e.name, err)
	}
	if old != nil {
		old.stop("reload")
	}
	return nil
}
