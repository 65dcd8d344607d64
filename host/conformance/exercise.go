package conformance

import (
	"encoding/json"
	"fmt"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"os"
	"slices"
	"strings"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/conformance/argsgen"
	"github.com/octet-kit/octet/host/process"
)

// The exercise checks call the author's own tools: every tool the extension declares at
// initialize, and every tool of its dynamic catalog once published, with arguments
// generated from the tool's parameters schema (package argsgen) plus the examples of the
// manifest's [certify] table. A tool the table skips is reported skipped with its reason.

// DefaultCalls is the default --calls: the most valid and the most invalid generated
// cases per tool and check. Small, so certify of one extension stays within seconds.
const DefaultCalls = 12

func (o *Options) calls() int {
	if o.Calls > 0 {
		return o.Calls
	}
	return DefaultCalls
}

// ToolCalls is one tool's tally in one check.
type ToolCalls struct {
	Tool    string
	Skipped string // the [certify] reason the tool was not called ("" when it was)
	Calls   int
	Passed  int
	Failed  int
	// Failure describes the first failed call: the exact arguments, what came back, the
	// replay command, the frames and the last stderr lines.
	Failure string
}

// toolDef is a declared tool as the extension described it.
type toolDef struct {
	Name         string
	Parameters   json.RawMessage
	OutputSchema json.RawMessage
	Revision     int64 // the catalog revision it was published in (0: initialize)
}

// exercised is one tool with its planned calls.
type exercised struct {
	def  toolDef
	plan *argsgen.Plan
	tc   *ToolCalls
}

// tally returns the check's tally for a tool, creating it.
func (t *T) tally(name string) *ToolCalls {
	for _, tc := range t.tools {
		if tc.Tool == name {
			return tc
		}
	}
	tc := &ToolCalls{Tool: name}
	t.tools = append(t.tools, tc)
	return tc
}

// declaredTools lists the initialize tools, then any tool the dynamic catalog holds that
// is not in known.
func declaredTools(s *Session, init *InitResult, known map[string]bool) []toolDef {
	var out []toolDef
	for _, d := range init.Tools {
		if !known[d.Name] {
			known[d.Name] = true
			out = append(out, toolDef{Name: d.Name, Parameters: d.Parameters, OutputSchema: d.OutputSchema})
		}
	}
	rev, cat := s.services.catalog()
	for _, d := range cat {
		if !known[d.Name] {
			known[d.Name] = true
			out = append(out, toolDef{Name: d.Name, Parameters: d.Parameters, OutputSchema: d.OutputSchema, Revision: rev})
		}
	}
	return out
}

// planTools plans the calls of each tool in defs; skipped tools and tools whose plan
// cannot be made are tallied and left out.
func (t *T) planTools(defs []toolDef) ([]exercised, []string) {
	var out []exercised
	var problems []string
	for _, d := range defs {
		tc := t.tally(d.Name)
		entry, _ := t.Ext.Manifest.CertifyEntry(d.Name)
		if entry.Skip {
			tc.Skipped = entry.Reason
			continue
		}
		params := d.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object"}`)
		}
		plan, err := argsgen.Generate(params, entry.Examples, argsgen.Options{Seed: t.opts.Seed, Calls: t.opts.calls()})
		if err != nil {
			tc.Failed++
			tc.Failure = err.Error()
			problems = append(problems, fmt.Sprintf("tool %q: %v", d.Name, err))
			continue
		}
		for _, bad := range plan.BadExamples {
			tc.Failed++
			why := fmt.Sprintf("tool %q: the manifest's %s (arguments %s)", d.Name, bad.What, bad.Args)
			if tc.Failure == "" {
				tc.Failure = why
			}
			problems = append(problems, why)
		}
		out = append(out, exercised{def: d, plan: plan, tc: tc})
	}
	return out, problems
}

// callArgs is tool/call's params for a case.
func callParams(d toolDef, args json.RawMessage) map[string]any {
	p := map[string]any{"name": d.Name, "arguments": args}
	if d.Revision > 0 {
		p["catalog_revision"] = d.Revision
	}
	return p
}

// judgeValid says what is wrong with the answer to a call with valid arguments, or "" when
// it is a result the host passes on (wire schema and output_schema) or a tool error in the
// documented shape: is_error, a handler-authored code outside the JSON-RPC reserved range,
// or a host service's refusal carried verbatim.
func judgeValid(resp Response, d toolDef, api string) string {
	if e := resp.Error; e != nil {
		switch {
		case e.Code < -32768 || e.Code > -32000, e.Code == -32002 || e.Code == -32004 || e.Code == -32005:
			return ""
		case e.Code == -32603:
			return fmt.Sprintf("-32603 (the handler failed or broke its own promise): %s", e.Message)
		case e.Code == -32602:
			return fmt.Sprintf("-32602 for arguments the tool's own parameters schema allows: %s (tighten the schema or accept them)", e.Message)
		}
		return fmt.Sprintf("error %d for a valid call: %s", e.Code, e.Message)
	}
	if err := host.JudgeResult(protocol.MethodToolCall, api, d.Name, resp.Result, d.OutputSchema); err != nil {
		return "a result the host refuses: " + err.Error()
	}
	return ""
}

// judgeInvalid says what is wrong with the answer to a call whose arguments break one rule
// of the parameters schema: it must be -32602 whose data names the failing value's pointer
// as the host's validator does.
func judgeInvalid(resp Response, c argsgen.Case) string {
	e := resp.Error
	if e == nil {
		return "a result (" + excerpt(resp.Result, 120) + "): the arguments were served, not refused"
	}
	if e.Code != -32602 {
		return fmt.Sprintf("error %d (%s), not -32602", e.Code, e.Message)
	}
	var data struct {
		Pointer *string `json:"pointer"`
	}
	if json.Unmarshal(e.Data, &data) != nil || data.Pointer == nil {
		return fmt.Sprintf("-32602 without a JSON pointer in data (data %s); the host's validator reports %q", excerpt(e.Data, 120), c.Pointer)
	}
	if *data.Pointer != c.Pointer {
		return fmt.Sprintf("-32602 pointing at %q; the host's validator reports %q (%s)", *data.Pointer, c.Pointer, c.Keyword)
	}
	return ""
}

// callFailure renders a failed call so it can be replayed: the arguments, what came back,
// the octet-host call command line, the frames and the last stderr lines.
func (t *T) callFailure(s *Session, d toolDef, c argsgen.Case, got string) string {
	var b strings.Builder
	kind := "valid"
	if !c.Valid {
		kind = "invalid"
	}
	fmt.Fprintf(&b, "tool %q with %s arguments %s (%s): %s\n", d.Name, kind, c.Args, c.What, got)
	fmt.Fprintf(&b, "replay: octet-host call %s %s %s", shellQuote(t.Ext.Dir), d.Name, shellQuote(string(c.Args)))
	if s != nil {
		b.WriteString("\nframes (→ to the extension, ← from it):")
		for _, f := range s.Frames() {
			b.WriteString("\n  " + f)
		}
		if tail := s.StderrTail(); len(tail) > 0 {
			b.WriteString("\nstderr (last lines):")
			for _, l := range process.Readable(tail[max(0, len(tail)-8):]) {
				b.WriteString("\n  " + l)
			}
		}
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// record tallies one call; a failure is kept (the first per tool) and returned.
func (t *T) record(s *Session, e exercised, c argsgen.Case, problem string) string {
	e.tc.Calls++
	if problem == "" {
		e.tc.Passed++
		return ""
	}
	e.tc.Failed++
	f := t.callFailure(s, e.def, c, problem)
	if e.tc.Failure == "" {
		e.tc.Failure = f
	}
	return f
}

// exerciseSummary is a check's result: nil when every call passed, else one failure
// listing the first failing call of each tool.
func (t *T) exerciseSummary(expected string, failures []string) error {
	calls, passed, skipped := 0, 0, 0
	for _, tc := range t.tools {
		calls += tc.Calls
		passed += tc.Passed
		if tc.Skipped != "" {
			skipped++
		}
	}
	if calls == 0 && len(failures) == 0 {
		switch {
		case len(t.tools) == 0:
			return skip("the extension declares no tools")
		case skipped == len(t.tools):
			return skip("every tool is skipped by the manifest's [certify] table")
		}
		return skip("no case for this check follows from the tools' parameters schemas (an open object has no invalid arguments)")
	}
	t.Note("%d calls, %d passed, %d tools, %d skipped by [certify]", calls, passed, len(t.tools)-skipped, skipped)
	if len(failures) > 0 {
		return fail(expected, "%d of %d calls failed\n%s", calls-passed, calls, strings.Join(failures, "\n\n"))
	}
	return nil
}

// liveTools opens a session and plans every declared tool; it returns the session, the
// handshake and the plans.
func (t *T) liveTools(o InitOptions) (*Session, *InitResult, []exercised, []string, error) {
	t.cleanups = append(t.cleanups, t.scratchWorkspace())
	s, init, err := t.Open(o)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	known := map[string]bool{}
	plans, problems := t.planTools(declaredTools(s, init, known))
	return s, init, plans, problems, nil
}

func sortedTallies(tcs []*ToolCalls) []ToolCalls {
	out := make([]ToolCalls, 0, len(tcs))
	for _, tc := range tcs {
		out = append(out, *tc)
	}
	slices.SortStableFunc(out, func(a, b ToolCalls) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}

// catalog is the generation's current tool catalog (the initialize tools, then whatever
// the extension published), with its revision.
func (v *Services) catalog() (int64, []host.ToolDefinition) {
	v.mu.Lock()
	c := v.caller
	v.mu.Unlock()
	if c == nil {
		return 0, nil
	}
	return v.router.Catalog(c)
}

// scratchWorkspace points the check's sessions at a fresh, empty workspace (OCTET_WORKSPACE
// and initialize's workspace.root) instead of the extension's directory, so a tool called
// with generated arguments cannot change the author's files; the returned func restores the
// extension and removes the directory.
func (t *T) scratchWorkspace() func() {
	dir, err := os.MkdirTemp("", "octet-certify-workspace-")
	if err != nil {
		return func() {}
	}
	orig := t.Ext
	ext := *orig
	ext.Workspace = dir
	t.Ext = &ext
	return func() {
		t.Ext = orig
		os.RemoveAll(dir)
	}
}
