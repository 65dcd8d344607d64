package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/octet-kit/octet/host/services"
)

// eventPrinter renders the service events of `call` (on stderr, so stdout stays one JSON
// line per tool) and the `run` console as text for a person: progress as a bar with its
// message, notifications, confirmations and input prompts with what answered them, and
// presentation snapshots (render_snapshot.go). The router redacted every payload; the
// output writer redacts again. Each event is one Write, so lines never interleave.
type eventPrinter struct {
	w io.Writer
}

// Event is a services.EventSink.
func (p eventPrinter) Event(ev services.Event) {
	if text := renderEvent(ev); text != "" {
		_, _ = io.WriteString(p.w, text)
	}
}

// renderEvent is the text of one event, each line prefixed with "[extension] " and ended
// by a newline; "" for events a person need not see.
func renderEvent(ev services.Event) string {
	var body string
	switch pl := ev.Payload.(type) {
	case services.Progress:
		body = renderProgress(pl.Event)
	case services.Notification:
		body = pl.Level + ": " + titled(pl.Title, pl.Message)
	case services.Confirmation:
		body = "confirm " + quoteText(titled(pl.Title, pl.Message))
		if pl.Destructive {
			body += " (destructive)"
		}
		answer := "denied"
		if pl.Confirmed {
			answer = "confirmed"
		}
		if reason := clean(pl.Reason); strings.HasPrefix(reason, answer) {
			body += " → " + reason // "denied: no scripted answer (default policy)"
		} else {
			body += " → " + answer + " (" + reason + ")"
		}
	case services.InputRequest:
		body = "input " + quoteText(pl.Prompt)
		if pl.Secret {
			body += " (secret)"
		}
		if pl.Answered {
			body += " → answered"
		} else {
			body += " → cancelled"
		}
	case services.PresentationUpdate:
		body = renderSnapshot(pl)
	case services.StatusContribution:
		body = "status " + clean(pl.Surface) + ": " + clean(pl.Text)
	case services.ContextContribution:
		labels := make([]string, len(pl.Items))
		for i, it := range pl.Items {
			labels[i] = clean(it.Label) + " (" + it.Placement + ")"
		}
		body = "context: " + strings.Join(labels, ", ")
	case services.Diagnostic:
		body = "diagnostic " + clean(pl.Method) + ": " + clean(pl.Message)
	default:
		return ""
	}
	if body == "" {
		return ""
	}
	prefix := "[" + ev.Extension + "] "
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		b.WriteString(prefix + line + "\n")
	}
	return b.String()
}

// barCells is the width of a progress bar.
const barCells = 20

// renderProgress is one $/progress event: a status as a bar and percentage when it has a
// total ("▕██████░░░░░░▏  30% 3/10 files  message"), else its count and message; output
// as the stream and its text; a decoration as its label and detail.
func renderProgress(raw json.RawMessage) string {
	var e struct {
		Type     string   `json:"type"`
		Message  string   `json:"message"`
		Current  *float64 `json:"current"`
		Total    *float64 `json:"total"`
		Unit     string   `json:"unit"`
		Stream   string   `json:"stream"`
		Encoding string   `json:"encoding"`
		Data     string   `json:"data"`
		Label    string   `json:"label"`
		Detail   string   `json:"detail"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return ""
	}
	switch e.Type {
	case "status":
		var parts []string
		unit := ""
		if e.Unit != "" {
			unit = " " + clean(e.Unit)
		}
		switch {
		case e.Current != nil && e.Total != nil && *e.Total > 0:
			frac := min(max(*e.Current / *e.Total, 0), 1)
			full := int(frac*barCells + 0.5)
			parts = append(parts, "▕"+strings.Repeat("█", full)+strings.Repeat("░", barCells-full)+"▏"+
				fmt.Sprintf("%4d%%", int(frac*100+0.5)), number(*e.Current)+"/"+number(*e.Total)+unit)
		case e.Current != nil:
			parts = append(parts, number(*e.Current)+unit)
		}
		if e.Message != "" {
			parts = append(parts, clean(e.Message))
		}
		if len(parts) == 0 {
			parts = append(parts, "working")
		}
		return "progress " + strings.Join(parts, "  ")
	case "output":
		data := e.Data
		if e.Encoding == "base64" {
			b, err := base64.StdEncoding.DecodeString(e.Data)
			if err != nil || !utf8.Valid(b) {
				return fmt.Sprintf("%s: (%d bytes of binary output)", e.Stream, len(b))
			}
			data = string(b)
		}
		var b strings.Builder
		for _, line := range strings.Split(strings.TrimRight(data, "\n"), "\n") {
			b.WriteString(e.Stream + " | " + clean(line) + "\n")
		}
		return b.String()
	case "decoration":
		return "◆ " + titled(e.Label, e.Detail)
	}
	return ""
}

// number prints a progress count without a needless fraction.
func number(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprint(int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}

func titled(title, text string) string {
	if title == "" {
		return clean(text)
	}
	if text == "" {
		return clean(title)
	}
	return clean(title) + ": " + clean(text)
}

func quoteText(s string) string { return "“" + s + "”" }

// clean makes extension text safe for a terminal: control characters (an escape sequence
// could move the cursor or retitle the window) and line breaks are shown as escapes, so
// one event stays on its own lines and cannot disguise itself as the host's output.
func clean(s string) string {
	if !strings.ContainsFunc(s, isUnsafe) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isUnsafe(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isUnsafe(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}
