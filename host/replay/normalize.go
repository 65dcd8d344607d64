package replay

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// The normalisation is the whole list of what a replay ignores; everything else in an
// extension->host frame must come back byte for byte (after canonical JSON: keys sorted,
// no insignificant space). Each rule names fields or values that differ between two runs of
// the same code for reasons that are not the extension's behaviour:
//
//  1. Request ids the extension chose. The `id` of an extension->host request is the
//     extension's own counter, and the player answers each request as it comes, matched
//     by method and order, so only the request itself is compared: its id becomes "<id>".
//     The ids of responses are the host's (the player sends the recorded host ids), so
//     they are compared as they are.
//  2. Timings. Clocks move between runs: a member named "time", "timestamp", "at",
//     "elapsed" or "duration", or ending in "_at", "_ms", "_time", "_seconds" or
//     "_timestamp", has its value (whatever its type) replaced by "<time>".
//  3. Generated identifiers. The host makes a new session id, extension instance id,
//     artifact ids and approval tokens every run, and an extension may make its own
//     (uuid4, a random hex name): a UUID, and any run of 16 or more hexadecimal digits
//     with at least one letter among them (a run of decimal digits is data: a count, a
//     phone number), inside any string becomes "<hex>".
//  4. Process ids: a member named "pid" or ending in "_pid" becomes "<pid>".
//  5. Paths of the two runs. The recorded extension directory and the directory replayed
//     against are both "<extension-dir>" (the player already rewrote the host's frames to
//     name the new directory), so a tool that reports its own location does not differ.
//
// A field that matches a rule is not compared even when the difference is real (a tool
// that returns "timeout_ms": 500 and later 600 is not caught): name such data otherwise.

var (
	uuidRE = regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	hexRE  = regexp.MustCompile(`(?i)[0-9a-f]{16,}`)
)

// Placeholders the rules put in place of what they ignore.
const (
	IDPlaceholder   = "<id>"
	TimePlaceholder = "<time>"
	HexPlaceholder  = "<hex>"
	PIDPlaceholder  = "<pid>"
	DirPlaceholder  = "<extension-dir>"
)

// Normalizer applies the rules to extension->host frames of one comparison.
type Normalizer struct {
	// Dirs are the extension directories of the two runs (rule 5); empty ones are ignored.
	Dirs []string
}

// Frame returns frame normalised and canonical (sorted keys, compact), or, when it is not
// JSON, the text as it is (compared as a string).
func (n Normalizer) Frame(frame []byte) string {
	dec := json.NewDecoder(bytes.NewReader(frame))
	dec.UseNumber() // numbers compare as written, never through float64
	var v any
	if dec.Decode(&v) != nil {
		return string(bytes.TrimSpace(frame))
	}
	if obj, ok := v.(map[string]any); ok {
		if _, isRequest := obj["method"]; isRequest {
			if id, has := obj["id"]; has && id != nil {
				obj["id"] = IDPlaceholder // rule 1
			}
		}
	}
	v = n.value("", v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

func (n Normalizer) value(name string, v any) any {
	if isTimeName(name) {
		return TimePlaceholder
	}
	if name == "pid" || strings.HasSuffix(name, "_pid") {
		return PIDPlaceholder
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = n.value(k, e)
		}
	case []any:
		for i, e := range x {
			x[i] = n.value("", e)
		}
	case string:
		return n.text(x)
	}
	return v
}

func (n Normalizer) text(s string) string {
	for _, d := range n.Dirs {
		if d != "" {
			s = strings.ReplaceAll(s, d, DirPlaceholder)
		}
	}
	s = uuidRE.ReplaceAllString(s, HexPlaceholder)
	return hexRE.ReplaceAllStringFunc(s, func(run string) string {
		if strings.IndexFunc(run, func(r rune) bool { return r > '9' }) < 0 {
			return run // decimal digits only
		}
		return HexPlaceholder
	})
}

func isTimeName(name string) bool {
	switch name {
	case "time", "timestamp", "at", "elapsed", "duration":
		return true
	}
	for _, suf := range []string{"_at", "_ms", "_time", "_seconds", "_timestamp"} {
		if strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}
