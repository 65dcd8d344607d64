package conformance

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Tier says who a check binds.
type Tier int

const (
	// Required binds every extension.
	Required Tier = iota
	// Conditional binds an extension that declares the contribution or negotiates the
	// feature the check exercises (for the fixture tools: the fixture).
	Conditional
	// Advisory reports good practice; a failure is shown but never fails certification.
	Advisory
)

// String names the tier as reports print it.
func (t Tier) String() string {
	switch t {
	case Required:
		return "required"
	case Conditional:
		return "conditional"
	}
	return "advisory"
}

// Check is one named conformance probe.
type Check struct {
	Name        string             // stable, dotted: "cancel.reaches_handler"
	Description string             // one line: what is proven
	Requirement string             // where the rule is written: a seed section or a wire.md/schema path
	Tier        Tier               // who it binds
	Tools       []string           // fixture tools it calls; it applies only when the manifest contributes them all
	Fixture     bool               // binds only the conformance fixture (it relies on fixture.md behaviour)
	Features    []protocol.Feature // features it needs negotiated; not negotiated means skipped
	Covers      []string           // requirement ids it exercises (see Requirement), for the coverage report
	Run         func(t *T) error
}

// Applies reports whether the check binds ext, and why not when it does not.
//
// A check that calls fixture tools binds only the conformance fixture: an example
// may well have a tool called "echo" that does something else.
func (c *Check) Applies(ext *Extension) (bool, string) {
	if (len(c.Tools) > 0 || c.Fixture) && !ext.IsFixture() {
		return false, "runs against the conformance fixture (it relies on fixture.md behaviour)"
	}
	for _, tool := range c.Tools {
		if !ext.HasTool(tool) {
			return false, fmt.Sprintf("the manifest does not contribute tool %q", tool)
		}
	}
	if len(c.Features) > 0 && ext.Manifest.APIVersion == "0.1" {
		return false, "API 0.1 negotiates no features"
	}
	return true, ""
}

var registry []*Check

// register adds checks at init time; names must be unique.
func register(cs ...*Check) {
	for _, c := range cs {
		if slices.ContainsFunc(registry, func(o *Check) bool { return o.Name == c.Name }) {
			panic("conformance: duplicate check " + c.Name)
		}
		registry = append(registry, c)
	}
}

// reportOrder lists check-name prefixes in the order reports show them: the
// handshake first, then the wire, the process, and the services last.
var reportOrder = []string{"handshake", "host", "version", "negotiate", "manifest", "rpc", "echo", "errors", "cancel", "progress",
	"callback", "overload", "contributions", "lifecycle", "result", "frame", "stdout", "crash", "eof", protocol.MethodShutdown,
	"catalog", string(protocol.FeatureArtifacts), "input", "notify", "policy", string(protocol.FeatureSecrets), "presentation", "agents", string(protocol.FeatureKV)}

func rank(c *Check) int {
	prefix, _, _ := strings.Cut(c.Name, ".")
	if i := slices.Index(reportOrder, prefix); i >= 0 {
		return i
	}
	return len(reportOrder)
}

// Checks returns every registered check in report order.
func Checks() []*Check {
	out := slices.Clone(registry)
	slices.SortStableFunc(out, func(a, b *Check) int { return rank(a) - rank(b) })
	return out
}

// renamed maps a check's former name to its current one. A former name is still accepted for
// one release (Lookup, Options.Only and Skip, certify --check) so that scripts and CI lines
// keep working while they migrate; the report always says the current name.
var renamed = map[string]string{
	"catalog.epochs": "catalog.revisions", // the catalog's versions are revisions (docs/glossary.md)
}

// Canonical returns the current name of the check name. For a former name it also returns a
// deprecation note to show the user; otherwise note is empty.
func Canonical(name string) (current, note string) {
	if to, ok := renamed[name]; ok {
		return to, fmt.Sprintf("check %q is now %q; the old name is accepted until the release after next", name, to)
	}
	return name, ""
}

// Lookup returns the check with that name (a former name finds the renamed check).
func Lookup(name string) (*Check, bool) {
	name, _ = Canonical(name)
	i := slices.IndexFunc(registry, func(c *Check) bool { return c.Name == name })
	if i < 0 {
		return nil, false
	}
	return registry[i], true
}

// Failure is a failed expectation: what the rule wanted and what happened.
type Failure struct {
	Expected string
	Got      string
}

func (f *Failure) Error() string { return "expected " + f.Expected + "; got " + f.Got }

// fail builds a Failure.
func fail(expected, gotFormat string, args ...any) error {
	return &Failure{Expected: expected, Got: fmt.Sprintf(gotFormat, args...)}
}

// errSkip marks a check that found, after starting, that it does not apply.
type errSkip struct{ reason string }

func (e errSkip) Error() string { return "skipped: " + e.reason }

// skip ends a check as not applicable.
func skip(format string, args ...any) error { return errSkip{fmt.Sprintf(format, args...)} }

func isSkip(err error) (string, bool) {
	var s errSkip
	if errors.As(err, &s) {
		return s.reason, true
	}
	return "", false
}
