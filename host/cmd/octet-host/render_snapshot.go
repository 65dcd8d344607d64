package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/host/internal/columns"
	"github.com/octet-kit/octet/host/services"
)

// viewSnapshot is the part of a presentation snapshot (wire.md §6) a terminal shows. The
// router validated it completely before it became an event.
type viewSnapshot struct {
	Revision int64 `json:"revision"`
	Status   *struct {
		State  string `json:"state"`
		Label  string `json:"label"`
		Detail string `json:"detail"`
	} `json:"status"`
	Activities []struct {
		ID     string `json:"id"`
		Label  string `json:"label"`
		State  string `json:"state"`
		Detail string `json:"detail"`
	} `json:"activities"`
	Collection *struct {
		Kind     string `json:"kind"`
		Selected string `json:"selected"`
		Nodes    []struct {
			ID     string `json:"id"`
			Parent string `json:"parent"`
			Label  string `json:"label"`
			State  string `json:"state"`
		} `json:"nodes"`
		Detail *struct {
			Title string `json:"title"`
			Text  string `json:"text"`
		} `json:"detail"`
	} `json:"collection"`
	Actions []struct {
		ID          string   `json:"id"`
		Label       string   `json:"label"`
		Command     string   `json:"command"`
		Arguments   []string `json:"arguments"`
		Destructive bool     `json:"destructive"`
	} `json:"actions"`
}

// renderSnapshot is a snapshot as text: a heading with the revision and status, then its
// activities in aligned columns (state, label, detail), its collection as a list or a tree
// (├─ └─ branches, the selected node marked ▸), the collection's detail and its actions
// with the command each runs. Every line is indented under the heading.
func renderSnapshot(u services.PresentationUpdate) string {
	var s viewSnapshot
	if json.Unmarshal(u.Snapshot, &s) != nil {
		return ""
	}
	var b strings.Builder
	head := fmt.Sprintf("presentation rev %d", s.Revision)
	if u.Owner == nil {
		head += " (process)"
	}
	if s.Status != nil {
		head += ": " + clean(s.Status.State) + " " + quoteText(clean(s.Status.Label))
		if s.Status.Detail != "" {
			head += " — " + clean(s.Status.Detail)
		}
	}
	b.WriteString(head + "\n")
	if len(s.Activities) > 0 {
		b.WriteString("  activities\n")
		var tb columns.Table
		for _, a := range s.Activities {
			tb.Row("    "+stateMark(a.State)+" "+clean(a.State), clean(a.Label), clean(a.Detail))
		}
		tb.WriteTo(&b)
	}
	if c := s.Collection; c != nil {
		b.WriteString("  " + c.Kind + "\n")
		children := map[string][]int{}
		for i, n := range c.Nodes {
			children[n.Parent] = append(children[n.Parent], i)
		}
		var walk func(parent, indent string, depth int)
		walk = func(parent, indent string, depth int) {
			kids := children[parent]
			for k, i := range kids {
				n := c.Nodes[i]
				mark := "  "
				if n.ID == c.Selected && c.Selected != "" {
					mark = "▸ "
				}
				branch, next := "", ""
				if c.Kind == "tree" && depth > 0 {
					branch, next = "├─ ", "│  "
					if k == len(kids)-1 {
						branch, next = "└─ ", "   "
					}
				}
				line := "  " + mark + indent + branch + clean(n.Label)
				if n.State != "" {
					line += "  [" + clean(n.State) + "]"
				}
				b.WriteString(line + "\n")
				if depth < 64 { // the router bounds depth; this guards the recursion anyway
					walk(n.ID, indent+next, depth+1)
				}
			}
		}
		walk("", "", 0)
		if c.Detail != nil {
			b.WriteString("  detail: " + titled(c.Detail.Title, c.Detail.Text) + "\n")
		}
	}
	if len(s.Actions) > 0 {
		b.WriteString("  actions\n")
		var tb columns.Table
		for _, a := range s.Actions {
			cmd := "→ " + strings.Join(append([]string{clean(a.Command)}, cleanAll(a.Arguments)...), " ")
			if a.Destructive {
				cmd += "  (destructive)"
			}
			tb.Row("    ["+clean(a.ID)+"]", clean(a.Label), cmd)
		}
		tb.WriteTo(&b)
	}
	return b.String()
}

// stateMark is a glyph for a presentation state, so a column of states reads at a glance.
func stateMark(state string) string {
	switch state {
	case "succeeded":
		return "✓"
	case "failed":
		return "✗"
	case "running", "active", "loading":
		return "●"
	case "pending":
		return "○"
	case "cancelled", "stopped":
		return "■"
	case "degraded", "unavailable":
		return "!"
	}
	return "·"
}

func cleanAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clean(s)
	}
	return out
}
