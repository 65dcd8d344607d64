package conformance

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/host/script"
)

// The conformance script: the reference host's --script answers every check relies
// on, so each outcome is known in advance.

// conformanceSession is the session every conformance request belongs to.
const conformanceSession = "conformance-session"

// Policy rules, by intent operation of kind "fixture" (any other: deny, the default).
const (
	PolicyAllowed = "read"   // allow
	PolicyAsked   = "write"  // ask, the scripted user approves: a one-use approval token
	PolicyDenied  = "delete" // deny, with a reason
)

// InputAnswers answers input/request by prompt; a prompt containing "cancel" is
// cancelled (null), any other prompt too (the headless default).
var InputAnswers = map[string]string{"your name": "answer:your name", "a token": "answer:a token",
	// interaction.options: one of the options, and a value that is none of them.
	optionsPickPrompt: "dev", optionsStrayPrompt: "feature"}

// HangingTask is a child-session task that keeps running until interrupted.
const HangingTask = "steered"

// AgentModels is what agent/models lists (before query and limit apply).
var AgentModels = []map[string]any{
	{"provider": "conformance", "model": "fixed-small", "label": "Fixed small"},
	{"provider": "conformance", "model": "fixed-large", "label": "Fixed large"},
	{"provider": "other", "model": "elsewhere"},
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// conformanceScript writes the script as the TOML a person would, and parses it with
// the reference host's own parser. secrets is the broker's contents.
func conformanceScript(secrets map[string]string) (*script.Script, error) {
	var b strings.Builder
	q := strconv.Quote
	b.WriteString("[secrets]\n")
	for name, value := range secrets {
		fmt.Fprintf(&b, "%s = %s\n", q(name), q(value))
	}
	// Confirmations: a message saying "deny" is denied, anything else confirmed.
	b.WriteString("\n[[confirmations]]\nmatch = \"deny\"\nconfirmed = false\n\n[[confirmations]]\nmatch = \"\"\nconfirmed = true\n")
	b.WriteString("\n[[inputs]]\nmatch = \"cancel\"\ncancel = true\n")
	for match, value := range InputAnswers {
		fmt.Fprintf(&b, "\n[[inputs]]\nmatch = %s\nvalue = %s\n", q(match), q(value))
	}
	fmt.Fprintf(&b, "\n[[policy]]\nkind = \"fixture\"\noperation = %s\ndecision = \"allow\"\n", q(PolicyAllowed))
	fmt.Fprintf(&b, "\n[[policy]]\nkind = \"fixture\"\noperation = %s\ndecision = \"ask\"\nreason = \"writes need approval\"\napprove = true\n", q(PolicyAsked))
	fmt.Fprintf(&b, "\n[[policy]]\nkind = \"fixture\"\noperation = %s\ndecision = \"deny\"\nreason = \"deletes are denied\"\n", q(PolicyDenied))
	fmt.Fprintf(&b, "\n[[agents]]\ntask_name = %s\nhang = true\n", q(HangingTask))
	for _, m := range AgentModels {
		fmt.Fprintf(&b, "\n[[models]]\nprovider = %s\nmodel = %s\n", q(m["provider"].(string)), q(m["model"].(string)))
		if label, ok := m["label"].(string); ok {
			fmt.Fprintf(&b, "label = %s\n", q(label))
		}
	}
	return script.Parse("conformance-script.toml", []byte(b.String()), "")
}
