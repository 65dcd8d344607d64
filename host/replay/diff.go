package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/octet-kit/octet/host/recording"
)

// Frame is one frame of a session, in the recording's direction labels.
type Frame struct {
	Direction string // recording.HostToExt, recording.ExtToHost (host notes are ignored)
	Frame     []byte
}

// Report is the comparison of what an extension sent in a recording and in a replay.
type Report struct {
	// Groups holds one group per host request the extension's frames belong to (its
	// response, and the progress, snapshots and reverse requests naming it as their
	// parent), in the order the host sent them, then the frames that belong to none.
	Groups []Group `json:"groups"`
	// Notes are what the player saw on the way (a reply that never came, the process
	// ending early); they explain a difference but are not one.
	Notes []string `json:"notes,omitempty"`
}

// Group is the normalised frames of one host request, as a diff.
type Group struct {
	Label string `json:"label"` // "tool/call 2 (hello_world)", or "outside any request"
	Lines []Line `json:"lines"`
}

// Line is one frame of a group: in both runs (Op ' '), only recorded ('-') or only
// replayed ('+'). Text is the normalised canonical frame.
type Line struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// Differences counts the frames that are not in both runs.
func (r *Report) Differences() int {
	n := 0
	for _, g := range r.Groups {
		for _, l := range g.Lines {
			if l.Op != " " {
				n++
			}
		}
	}
	return n
}

// Compare normalises the extension->host frames of a recording and of a replay (see the
// rules in normalize.go) and diffs them request by request. The host->extension frames of
// recorded only label the groups. The inspector shows this same Report.
func Compare(recorded, replayed []Frame, n Normalizer) *Report {
	labels, order := hostRequests(recorded)
	rec, rep := groupFrames(recorded, n), groupFrames(replayed, n)
	keys := map[string]bool{}
	for k := range rec {
		keys[k] = true
	}
	for k := range rep {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	rank := func(k string) int {
		if i, ok := order[k]; ok {
			return i
		}
		return len(order) // frames outside any request, and requests the host never sent, last
	}
	sort.SliceStable(sorted, func(i, j int) bool {
		if rank(sorted[i]) != rank(sorted[j]) {
			return rank(sorted[i]) < rank(sorted[j])
		}
		return sorted[i] < sorted[j]
	})
	r := &Report{}
	for _, k := range sorted {
		label := labels[k]
		if k == "" {
			label = "outside any request"
		} else if label == "" {
			label = "request " + k + " (not sent by the host)"
		}
		r.Groups = append(r.Groups, Group{Label: label, Lines: diffLines(rec[k], rep[k])})
	}
	return r
}

// hostRequests labels each host request by its id ("tool/call 2 (hello_world)") and ranks
// them in sending order.
func hostRequests(frames []Frame) (map[string]string, map[string]int) {
	labels, order := map[string]string{}, map[string]int{}
	for _, f := range frames {
		if f.Direction != recording.HostToExt {
			continue
		}
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(f.Frame, &env) != nil || env.Method == "" || len(env.ID) == 0 || string(env.ID) == "null" {
			continue
		}
		k := string(env.ID)
		labels[k] = env.Method + " " + k
		if env.Params.Name != "" {
			labels[k] += " (" + env.Params.Name + ")"
		}
		order[k] = len(order)
	}
	return labels, order
}

// groupFrames sorts the extension->host frames by the host request they belong to: a
// response by its id, anything else by params.parent_request_id; "" for the rest. Within
// a group the order is the wire's (delivery is ordered per request).
func groupFrames(frames []Frame, n Normalizer) map[string][]string {
	out := map[string][]string{}
	for _, f := range frames {
		if f.Direction != recording.ExtToHost {
			continue
		}
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Parent json.RawMessage `json:"parent_request_id"`
			} `json:"params"`
		}
		key := ""
		if json.Unmarshal(f.Frame, &env) == nil {
			switch {
			case env.Method == "" && len(env.ID) > 0:
				key = string(env.ID)
			case len(env.Params.Parent) > 0 && string(env.Params.Parent) != "null":
				key = string(env.Params.Parent)
			}
		}
		out[key] = append(out[key], n.Frame(f.Frame))
	}
	return out
}

// maxLCSCells bounds the longest-common-subsequence table; longer groups are compared
// position by position.
const maxLCSCells = 4 << 20

// diffLines is a minimal line diff of a and b (longest common subsequence).
func diffLines(a, b []string) []Line {
	if len(a)*len(b) > maxLCSCells {
		var out []Line
		for i := 0; i < max(len(a), len(b)); i++ {
			switch {
			case i < len(a) && i < len(b) && a[i] == b[i]:
				out = append(out, Line{" ", a[i]})
			default:
				if i < len(a) {
					out = append(out, Line{"-", a[i]})
				}
				if i < len(b) {
					out = append(out, Line{"+", b[i]})
				}
			}
		}
		return out
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []Line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, Line{" ", a[i]})
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] > lcs[i+1][j]):
			out = append(out, Line{"+", b[j]})
			j++
		default:
			out = append(out, Line{"-", a[i]})
			i++
		}
	}
	return out
}

// WriteText prints the report for a person: a summary line, then each group that differs
// with its frames (- recorded, + replayed; equal frames are counted, not shown) and, under
// a frame replaced by another, the JSON pointers whose values changed.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, note := range r.Notes {
		b.WriteString("note: " + note + "\n")
	}
	d := r.Differences()
	if d == 0 {
		b.WriteString("no differences\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "%d frames differ (- recorded, + replayed)\n", d)
	for _, g := range r.Groups {
		changed, same := false, 0
		for _, l := range g.Lines {
			if l.Op != " " {
				changed = true
			} else {
				same++
			}
		}
		if !changed {
			continue
		}
		b.WriteString("@@ " + g.Label)
		if same > 0 {
			fmt.Fprintf(&b, " (%d frames equal)", same)
		}
		b.WriteString("\n")
		for i, l := range g.Lines {
			if l.Op == " " {
				continue
			}
			b.WriteString(l.Op + " " + l.Text + "\n")
			// A recorded frame and the replayed one in its place: name what changed. A
			// run of -'s followed by +'s is paired first with first.
			if l.Op == "+" {
				if old, ok := pairedOld(g.Lines, i); ok {
					for _, c := range fieldChanges(old, l.Text, 20) {
						b.WriteString("    " + c + "\n")
					}
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pairedOld finds the '-' line a '+' line at i replaces: the k-th '+' of a run pairs with
// the k-th '-' of the run of '-' just before it.
func pairedOld(lines []Line, i int) (string, bool) {
	k := 0
	for i-k-1 >= 0 && lines[i-k-1].Op == "+" {
		k++
	}
	start := i - k // first '+' of the run
	m := 0
	for start-m-1 >= 0 && lines[start-m-1].Op == "-" {
		m++
	}
	if k >= m {
		return "", false
	}
	return lines[start-m+k].Text, true
}

// fieldChanges lists, as "pointer: old → new", the leaves that differ between two JSON
// texts (at most limit).
func fieldChanges(a, b string, limit int) []string {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return nil
	}
	var out []string
	var walk func(p string, x, y any)
	walk = func(p string, x, y any) {
		if len(out) >= limit {
			return
		}
		mx, okx := x.(map[string]any)
		my, oky := y.(map[string]any)
		if okx && oky {
			keys := map[string]bool{}
			for k := range mx {
				keys[k] = true
			}
			for k := range my {
				keys[k] = true
			}
			names := make([]string, 0, len(keys))
			for k := range keys {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				var ex, ey any = missing{}, missing{}
				if v, ok := mx[k]; ok {
					ex = v
				}
				if v, ok := my[k]; ok {
					ey = v
				}
				walk(p+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), ex, ey)
			}
			return
		}
		ax, okx := x.([]any)
		ay, oky := y.([]any)
		if okx && oky {
			for i := 0; i < max(len(ax), len(ay)); i++ {
				var ex, ey any = missing{}, missing{}
				if i < len(ax) {
					ex = ax[i]
				}
				if i < len(ay) {
					ey = ay[i]
				}
				walk(fmt.Sprintf("%s/%d", p, i), ex, ey)
			}
			return
		}
		ja, jb := show(x), show(y)
		if ja != jb {
			if p == "" {
				p = "/"
			}
			out = append(out, p+": "+ja+" → "+jb)
		}
	}
	walk("", va, vb)
	return out
}

// missing stands for an absent member or element.
type missing struct{}

func show(v any) string {
	if _, ok := v.(missing); ok {
		return "(absent)"
	}
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return s
}
