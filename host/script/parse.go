package script

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/octet-kit/octet/host/internal/suggest"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The script is TOML: it is written by people (test authors, demo
// operators), TOML allows comments that explain each scripted answer, and
// the project already parses extension.toml with the same library. Parsing
// is strict: unknown keys, wrong types and invalid values are errors that
// name the file, the entry and the field.

// Limits (wire.md §8) come from the generated protocol package: a scripted
// answer the wire could not carry is refused when the script loads.
const (
	secretNameMaxBytes  = protocol.SecretNameMaxBytes
	secretValueMaxBytes = protocol.SecretValueMaxBytes
	inputValueMaxBytes  = protocol.InputValueMaxBytes
	maxSecrets          = protocol.MaxSecrets
)

// MaxScriptBytes bounds a script file and a secrets file: room for 16 input answers at
// their 256 KiB maximum; a larger file is refused before it is decoded.
const MaxScriptBytes = 4 << 20

// readBounded reads at most limit bytes of path and refuses a larger file.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("is larger than %d bytes", limit)
	}
	return data, nil
}

var secretName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

type fileFormat struct {
	SecretsFile   string            `toml:"secrets_file"`
	Secrets       map[string]string `toml:"secrets"`
	Confirmations []struct {
		Extension string `toml:"extension"`
		Match     string `toml:"match"`
		Confirmed *bool  `toml:"confirmed"`
	} `toml:"confirmations"`
	Inputs []struct {
		Extension string  `toml:"extension"`
		Match     string  `toml:"match"`
		Value     *string `toml:"value"`
		Cancel    bool    `toml:"cancel"`
	} `toml:"inputs"`
	Policy []struct {
		Extension string `toml:"extension"`
		Kind      string `toml:"kind"`
		Operation string `toml:"operation"`
		Decision  string `toml:"decision"`
		Reason    string `toml:"reason"`
		Approve   bool   `toml:"approve"`
	} `toml:"policy"`
	Agents []struct {
		TaskName         string `toml:"task_name"`
		Output           string `toml:"output"`
		State            string `toml:"state"`
		Turns            int64  `toml:"turns"`
		InputTokens      int64  `toml:"input_tokens"`
		OutputTokens     int64  `toml:"output_tokens"`
		CostMicrodollars int64  `toml:"cost_microdollars"`
		Hang             bool   `toml:"hang"`
	} `toml:"agents"`
	Models []struct {
		Provider string `toml:"provider"`
		Model    string `toml:"model"`
		Label    string `toml:"label"`
	} `toml:"models"`
	Lifecycle []struct {
		Method    string `toml:"method"`
		SessionID string `toml:"session_id"`
		TurnID    string `toml:"turn_id"`
		CallID    string `toml:"call_id"`
		Name      string `toml:"name"`
		Outcome   string `toml:"outcome"`
		IsError   bool   `toml:"is_error"`
	} `toml:"lifecycle"`
}

// Load reads and validates a script file. A relative secrets_file is
// resolved against the script's directory.
func Load(path string) (*Script, error) {
	data, err := readBounded(path, MaxScriptBytes)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return Parse(path, data, filepath.Dir(path))
}

// Parse validates script text; name labels errors, baseDir resolves
// secrets_file.
func Parse(name string, data []byte, baseDir string) (*Script, error) {
	if len(data) > MaxScriptBytes {
		return nil, fmt.Errorf("script %s: is larger than %d bytes", name, MaxScriptBytes)
	}
	// Nesting is counted before the decoder builds anything (as for manifests).
	if err := manifest.CheckTOMLDepth(data); err != nil {
		return nil, fmt.Errorf("script %s: %v", name, err)
	}
	var f fileFormat
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, fmt.Errorf("script %s: %s", name, describeTOMLError(err))
	}
	if und := md.Undecoded(); len(und) > 0 {
		sections := []string{"secrets_file", "secrets", "confirmations", "inputs", "policy", "agents", "models", "lifecycle"}
		keys := make([]string, len(und))
		hint := ""
		for i, k := range und {
			keys[i] = k.String()
			if len(k) == 1 && hint == "" { // a mistyped section: name the one it was meant to be
				hint = suggest.Hint(k[0], sections, nil)
			}
		}
		return nil, fmt.Errorf("script %s: unknown keys %s%s (known sections: %s)", name, strings.Join(keys, ", "), hint, strings.Join(sections, ", "))
	}
	s := &Script{}
	fail := func(section string, i int, format string, args ...any) error {
		return fmt.Errorf("script %s: %s[%d]: %s", name, section, i, fmt.Sprintf(format, args...))
	}
	for i, c := range f.Confirmations {
		if c.Confirmed == nil {
			return nil, fail("confirmations", i, "confirmed (true or false) is required")
		}
		s.Confirmations = append(s.Confirmations, Confirmation{Extension: c.Extension, Match: c.Match, Confirmed: *c.Confirmed})
	}
	for i, in := range f.Inputs {
		if (in.Value == nil) == !in.Cancel {
			return nil, fail("inputs", i, "give exactly one of value or cancel = true")
		}
		v := ""
		if in.Value != nil {
			v = *in.Value
			if len(v) > inputValueMaxBytes {
				return nil, fail("inputs", i, "value is %d bytes; input answers are limited to %d", len(v), inputValueMaxBytes)
			}
		}
		s.Inputs = append(s.Inputs, Input{Extension: in.Extension, Match: in.Match, Value: v, Cancel: in.Cancel})
	}
	for i, p := range f.Policy {
		if !slices.Contains([]string{"allow", "ask", "deny"}, p.Decision) {
			return nil, fail("policy", i, "decision %q is not allow, ask or deny", p.Decision)
		}
		if p.Approve && p.Decision != "ask" {
			return nil, fail("policy", i, "approve = true only makes sense with decision = \"ask\"")
		}
		for _, g := range []string{p.Kind, p.Operation} {
			if _, err := filepath.Match(g, ""); err != nil {
				return nil, fail("policy", i, "pattern %q is malformed: %v", g, err)
			}
		}
		s.Policy = append(s.Policy, PolicyRule(p))
	}
	for i, a := range f.Agents {
		if a.TaskName == "" {
			return nil, fail("agents", i, "task_name is required (\"*\" matches every task)")
		}
		if a.State != "" && !slices.Contains([]string{"settled", "failed", "timed_out"}, a.State) {
			return nil, fail("agents", i, "state %q is not settled, failed or timed_out", a.State)
		}
		if a.Turns < 0 || a.InputTokens < 0 || a.OutputTokens < 0 || a.CostMicrodollars < 0 {
			return nil, fail("agents", i, "turns, tokens and cost must be ≥ 0")
		}
		s.Agents = append(s.Agents, Agent(a))
	}
	for i, m := range f.Models {
		if m.Provider == "" || m.Model == "" {
			return nil, fail("models", i, "provider and model are required")
		}
		s.Models = append(s.Models, Model(m))
	}
	for i, l := range f.Lifecycle {
		e := protocol.LifecycleNotification{Method: protocol.LifecycleEvent(l.Method), SessionID: l.SessionID, TurnID: l.TurnID,
			CallID: l.CallID, Name: l.Name, Outcome: l.Outcome, IsError: l.IsError}
		if err := checkLifecycle(e); err != nil {
			return nil, fail("lifecycle", i, "%v", err)
		}
		s.Lifecycle = append(s.Lifecycle, e)
	}
	if f.Secrets != nil || f.SecretsFile != "" {
		s.secrets = map[string]string{}
	}
	if err := s.addSecrets(name+": secrets", f.Secrets); err != nil {
		return nil, err
	}
	if f.SecretsFile != "" {
		p := f.SecretsFile
		if !filepath.IsAbs(p) {
			p = filepath.Join(baseDir, p)
		}
		if err := s.AddSecretsFile(p); err != nil {
			return nil, fmt.Errorf("script %s: %w", name, err)
		}
	}
	return s, nil
}

// AddSecretsFile loads a TOML file of `name = "value"` lines into the
// broker (the host's --secrets flag). Errors name the file, line and
// secret name but never echo file text, which may be a secret.
func (s *Script) AddSecretsFile(path string) error {
	data, err := readBounded(path, MaxScriptBytes)
	if err != nil {
		return fmt.Errorf("secrets file %s: %w", path, err)
	}
	if err := manifest.CheckTOMLDepth(data); err != nil {
		return fmt.Errorf("secrets file %s: %v", path, err)
	}
	var m map[string]string
	if _, err := toml.Decode(string(data), &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("secrets file %s: line %d: not `name = \"value\"` TOML (the line is not shown: it may hold a secret)", path, pe.Position.Line)
		}
		return fmt.Errorf("secrets file %s: every entry must be `name = \"string\"` (values are not shown)", path)
	}
	if s.secrets == nil {
		s.secrets = map[string]string{}
	}
	return s.addSecrets("secrets file "+path, m)
}

func (s *Script) addSecrets(where string, m map[string]string) error {
	for name, v := range m {
		if !secretName.MatchString(name) {
			return fmt.Errorf("%s: %q is not a secret name (letter or underscore first, then letters, digits, _ . -; at most %d bytes)", where, name, secretNameMaxBytes)
		}
		if len(v) > secretValueMaxBytes || !utf8.ValidString(v) {
			return fmt.Errorf("%s: the value of %q must be UTF-8 of at most %d bytes", where, name, secretValueMaxBytes)
		}
		s.secrets[name] = v
	}
	if len(s.secrets) > maxSecrets*16 {
		return fmt.Errorf("%s: too many secrets (%d)", where, len(s.secrets))
	}
	return nil
}

// describeTOMLError keeps parse errors useful without echoing a line that
// may be inside the [secrets] table.
func describeTOMLError(err error) string {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		if strings.HasPrefix(pe.LastKey, "secrets") {
			return fmt.Sprintf("line %d: invalid TOML in the secrets table (the text is not shown: it may hold a secret)", pe.Position.Line)
		}
		return fmt.Sprintf("line %d: %s", pe.Position.Line, pe.Message)
	}
	// Type errors from decoding ("incompatible types") name keys, not values.
	return err.Error()
}

// lifecycleFields lists, per lifecycle notification, the fields an event may carry beyond
// session_id (all of them required).
var lifecycleFields = map[string][]string{
	protocol.MethodSessionStarted: {}, protocol.MethodSessionSettled: {"outcome"},
	protocol.MethodTurnStarted: {"turn_id"}, protocol.MethodTurnSettled: {"turn_id", "outcome"},
	protocol.MethodToolStarted: {"turn_id", "call_id", "name"}, protocol.MethodToolSettled: {"turn_id", "call_id", "name", "outcome"},
}

// outcomes are the schema's Outcome values, in its order (the error message lists them).
var outcomes = []string{string(protocol.OutcomeCompleted), string(protocol.OutcomeFailed), string(protocol.OutcomeCancelled),
	string(protocol.OutcomeInterrupted), string(protocol.OutcomeDisconnected), string(protocol.OutcomeShutdown), string(protocol.OutcomeLimit)}

// checkLifecycle says what a script's lifecycle entry lacks or has too much of.
func checkLifecycle(e protocol.LifecycleNotification) error {
	need, ok := lifecycleFields[string(e.Method)]
	if !ok {
		return fmt.Errorf("method %q is not a lifecycle notification", e.Method)
	}
	if e.SessionID == "" {
		return fmt.Errorf("session_id is required")
	}
	have := map[string]string{"turn_id": e.TurnID, "call_id": e.CallID, "name": e.Name, "outcome": e.Outcome}
	for _, f := range need {
		if have[f] == "" {
			return fmt.Errorf("%s needs %s", e.Method, f)
		}
	}
	for f, v := range have {
		if v != "" && !slices.Contains(need, f) {
			return fmt.Errorf("%s has no %s", e.Method, f)
		}
	}
	if e.Outcome != "" && !slices.Contains(outcomes, e.Outcome) {
		return fmt.Errorf("outcome %q is not one of %s", e.Outcome, strings.Join(outcomes, ", "))
	}
	if e.IsError && e.Method != protocol.MethodToolSettled {
		return fmt.Errorf("is_error belongs to %s only", protocol.MethodToolSettled)
	}
	return nil
}
