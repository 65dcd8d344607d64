package services

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
)

var id64 = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

var presentationStates = []string{"empty", "loading", "pending", "active", "running", "succeeded", "failed", "cancelled", "degraded", "stopped", "unavailable"}

type presentationParams struct {
	Snapshot json.RawMessage `json:"snapshot"`
	Parent   json.RawMessage `json:"parent_request_id,omitempty"`
	Owner    *Owner          `json:"resource_owner,omitempty"`
}

type snapshot struct {
	Revision   int64       `json:"revision"`
	Status     *snapStatus `json:"status,omitempty"`
	Activities []activity  `json:"activities"`
	Collection *collection `json:"collection,omitempty"`
	Actions    []action    `json:"actions"`
}

type snapStatus struct {
	State  string `json:"state"`
	Label  string `json:"label"`
	Detail string `json:"detail,omitempty"`
}

type activity struct {
	ID        string     `json:"id"`
	Label     string     `json:"label"`
	State     string     `json:"state"`
	Detail    string     `json:"detail,omitempty"`
	Reference *reference `json:"reference,omitempty"`
	Metrics   *metrics   `json:"metrics,omitempty"`
	StartedAt *int64     `json:"started_at_ms,omitempty"`
	UpdatedAt *int64     `json:"updated_at_ms,omitempty"`
}

type metrics struct {
	ToolCalls        *int64 `json:"tool_calls,omitempty"`
	InputTokens      *int64 `json:"input_tokens,omitempty"`
	CacheReadTokens  *int64 `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens *int64 `json:"cache_write_tokens,omitempty"`
	OutputTokens     *int64 `json:"output_tokens,omitempty"`
	ReasoningTokens  *int64 `json:"reasoning_tokens,omitempty"`
	CostMicrodollars *int64 `json:"cost_microdollars,omitempty"`
}

type collection struct {
	Kind     string  `json:"kind"`
	Nodes    []node  `json:"nodes"`
	Selected string  `json:"selected,omitempty"`
	Detail   *detail `json:"detail,omitempty"`
}

type detail struct {
	Title string `json:"title,omitempty"`
	Text  string `json:"text"`
}

type node struct {
	ID        string     `json:"id"`
	Parent    string     `json:"parent,omitempty"`
	Label     string     `json:"label"`
	State     string     `json:"state,omitempty"`
	Reference *reference `json:"reference,omitempty"`
}

type action struct {
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	Command     string   `json:"command"`
	Arguments   []string `json:"arguments,omitempty"`
	Destructive bool     `json:"destructive,omitempty"`
}

// reference is the union of the four reference kinds; validateReference
// dispatches on type and checks that only that variant's field is present.
type reference struct {
	Type       string `json:"type"`
	Session    string `json:"session,omitempty"`
	ArtifactID string `json:"artifact_id,omitempty"`
	Resource   string `json:"resource,omitempty"`
	URL        string `json:"url,omitempty"`
}

// presentation validates a snapshot completely, derives its owner and hands
// it to the rate limiter. Every refusal is a diagnostic: the method is a
// notification, so there is no response to carry an error.
func (r *Router) presentation(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p presentationParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if len(p.Parent) > 0 && p.Owner != nil {
		return nil, invalidParams("resource_owner", "parent_request_id and resource_owner are mutually exclusive")
	}
	var owner *Owner
	switch {
	case len(p.Parent) > 0:
		id, err := parseParentID(p.Parent)
		if err != nil {
			return nil, err
		}
		o, ok := r.activeParent(c, id)
		if !ok {
			return nil, unavailable("parent_request_id %s is not an active host request; snapshot dropped", idText(id))
		}
		owner = &o
	case p.Owner != nil:
		if p.Owner.InstanceID != c.InstanceID || p.Owner.Generation != c.Generation || p.Owner.SessionID == "" ||
			(c.IssuedOwner != nil && !c.IssuedOwner(*p.Owner)) {
			return nil, unavailable("resource_owner was not issued to this process generation; snapshot dropped")
		}
		owner = p.Owner
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, p.Snapshot); err != nil {
		return nil, invalidParams("snapshot", "%v", err)
	}
	if compact.Len() > presentationMaxBytes {
		return nil, invalidParams("snapshot", "is %d bytes encoded; the limit is %d", compact.Len(), presentationMaxBytes)
	}
	var s snapshot
	if err := decodeAt(compact.Bytes(), &s, "snapshot"); err != nil {
		return nil, err
	}
	if err := validateSnapshot(c, &s); err != nil {
		return nil, err
	}
	r.submitPresentation(c, PresentationUpdate{Owner: owner, Revision: s.Revision, Snapshot: compact.Bytes()})
	return nil, nil
}

func validateSnapshot(c *Caller, s *snapshot) error {
	if s.Revision < 0 || s.Revision > maxSafeInteger {
		return invalidParams("snapshot.revision", "must be an integer from 0 to 2^53−1")
	}
	if s.Status != nil {
		if err := checkState("snapshot.status.state", s.Status.State); err != nil {
			return err
		}
		if err := checkText("snapshot.status.label", s.Status.Label, 128, false); err != nil {
			return err
		}
		if err := checkText("snapshot.status.detail", s.Status.Detail, 1024, true); err != nil {
			return err
		}
	}
	if len(s.Activities) > presentationMaxActivities {
		return invalidParams("snapshot.activities", "has %d entries; the limit is %d", len(s.Activities), presentationMaxActivities)
	}
	seen := map[string]bool{}
	for i, a := range s.Activities {
		path := fmt.Sprintf("snapshot.activities[%d]", i)
		if err := checkID(path+".id", a.ID, seen); err != nil {
			return err
		}
		if err := checkText(path+".label", a.Label, 128, false); err != nil {
			return err
		}
		if err := checkState(path+".state", a.State); err != nil {
			return err
		}
		if err := checkText(path+".detail", a.Detail, 1024, true); err != nil {
			return err
		}
		if err := validateReference(path+".reference", a.Reference); err != nil {
			return err
		}
		if err := validateMetrics(path+".metrics", a.Metrics); err != nil {
			return err
		}
		for _, ts := range []struct {
			name string
			v    *int64
		}{{"started_at_ms", a.StartedAt}, {"updated_at_ms", a.UpdatedAt}} {
			if ts.v != nil && (*ts.v < 0 || *ts.v > maxSafeInteger) {
				return invalidParams(path+"."+ts.name, "must be an integer from 0 to 2^53−1")
			}
		}
	}
	if s.Collection != nil {
		if err := validateCollection(s.Collection); err != nil {
			return err
		}
	}
	if len(s.Actions) > presentationMaxActions {
		return invalidParams("snapshot.actions", "has %d entries; the limit is %d", len(s.Actions), presentationMaxActions)
	}
	seen = map[string]bool{}
	for i, a := range s.Actions {
		path := fmt.Sprintf("snapshot.actions[%d]", i)
		if err := checkID(path+".id", a.ID, seen); err != nil {
			return err
		}
		if err := checkText(path+".label", a.Label, 64, false); err != nil {
			return err
		}
		if !slices.Contains(c.Commands, a.Command) {
			return invalidParams(path+".command", "%q is not a command the manifest declares", a.Command)
		}
	}
	return nil
}

func validateCollection(col *collection) error {
	if col.Kind != "list" && col.Kind != "tree" {
		return invalidParams("snapshot.collection.kind", "%q is not list or tree", col.Kind)
	}
	if len(col.Nodes) > presentationMaxNodes {
		return invalidParams("snapshot.collection.nodes", "has %d entries; the limit is %d", len(col.Nodes), presentationMaxNodes)
	}
	parent := map[string]string{}
	seen := map[string]bool{}
	for i, n := range col.Nodes {
		path := fmt.Sprintf("snapshot.collection.nodes[%d]", i)
		if err := checkID(path+".id", n.ID, seen); err != nil {
			return err
		}
		if err := checkText(path+".label", n.Label, 128, false); err != nil {
			return err
		}
		if n.State != "" {
			if err := checkState(path+".state", n.State); err != nil {
				return err
			}
		}
		if err := validateReference(path+".reference", n.Reference); err != nil {
			return err
		}
		if n.Parent != "" {
			if col.Kind == "list" {
				return invalidParams(path+".parent", "list nodes have no parent; use kind \"tree\"")
			}
			if !id64.MatchString(n.Parent) {
				return invalidParams(path+".parent", "must match %s", id64)
			}
			parent[n.ID] = n.Parent
		}
	}
	// Every parent must exist, and walking up from any node must reach a
	// root within the depth limit (which also rules out cycles).
	for i, n := range col.Nodes {
		depth, cur := 1, n.ID
		for parent[cur] != "" {
			p := parent[cur]
			if !seen[p] {
				return invalidParams(fmt.Sprintf("snapshot.collection.nodes[%d].parent", i), "%q is not a node of this collection", p)
			}
			depth++
			if depth > presentationMaxDepth {
				return invalidParams(fmt.Sprintf("snapshot.collection.nodes[%d]", i), "tree is deeper than %d levels (or has a cycle)", presentationMaxDepth)
			}
			cur = p
		}
	}
	if col.Selected != "" && !seen[col.Selected] {
		return invalidParams("snapshot.collection.selected", "%q is not a node of this collection", col.Selected)
	}
	if col.Detail != nil {
		if err := checkText("snapshot.collection.detail.title", col.Detail.Title, 128, false); err != nil {
			return err
		}
		if len(col.Detail.Text) > presentationMaxDetailBytes {
			return invalidParams("snapshot.collection.detail.text", "is %d bytes; the limit is %d", len(col.Detail.Text), presentationMaxDetailBytes)
		}
		if hasControl(col.Detail.Text, true) {
			return invalidParams("snapshot.collection.detail.text", "contains control characters (terminal escapes are not presentation data)")
		}
	}
	return nil
}

func validateReference(path string, ref *reference) error {
	if ref == nil {
		return nil
	}
	fields := map[string]string{"session": ref.Session, "artifact": ref.ArtifactID, "resource": ref.Resource, "url": ref.URL}
	names := map[string]string{"session": "session", "artifact": "artifact_id", "resource": "resource", "url": "url"}
	want, ok := fields[ref.Type]
	if !ok {
		return invalidParams(path+".type", "%q is not session, artifact, resource or url", ref.Type)
	}
	for t, v := range fields {
		if t != ref.Type && v != "" {
			return invalidParams(path+"."+names[t], "is not a field of a %s reference", ref.Type)
		}
	}
	if want == "" {
		return invalidParams(path+"."+names[ref.Type], "is required")
	}
	if len(want) > 2048 || hasControl(want, false) {
		return invalidParams(path+"."+names[ref.Type], "must be at most 2048 bytes of plain text")
	}
	if ref.Type == "url" {
		if err := checkPresentationURL(ref.URL); err != nil {
			return invalidParams(path+".url", "%v", err)
		}
	}
	return nil
}

func validateMetrics(path string, m *metrics) error {
	if m == nil {
		return nil
	}
	for name, v := range map[string]*int64{"tool_calls": m.ToolCalls, "input_tokens": m.InputTokens, "cache_read_tokens": m.CacheReadTokens,
		"cache_write_tokens": m.CacheWriteTokens, "output_tokens": m.OutputTokens, "reasoning_tokens": m.ReasoningTokens, "cost_microdollars": m.CostMicrodollars} {
		if v != nil && (*v < 0 || *v > maxSafeInteger) {
			return invalidParams(path+"."+name, "must be an integer from 0 to 2^53−1")
		}
	}
	if m.ReasoningTokens != nil {
		var out int64
		if m.OutputTokens != nil {
			out = *m.OutputTokens
		}
		if *m.ReasoningTokens > out {
			return invalidParams(path+".reasoning_tokens", "%d exceeds output_tokens %d (reasoning is a subset of output)", *m.ReasoningTokens, out)
		}
	}
	return nil
}

func checkID(path, id string, seen map[string]bool) error {
	if !id64.MatchString(id) {
		return invalidParams(path, "%q must match %s", id, id64)
	}
	if seen[id] {
		return invalidParams(path, "%q is used twice", id)
	}
	seen[id] = true
	return nil
}

func checkState(path, s string) error {
	if !slices.Contains(presentationStates, s) {
		return invalidParams(path, "%q is not a presentation state", s)
	}
	return nil
}

func checkText(path, s string, max int, multiline bool) error {
	if chars(s) > max {
		return invalidParams(path, "is %d characters; the limit is %d", chars(s), max)
	}
	if hasControl(s, multiline) {
		return invalidParams(path, "contains control characters (terminal escapes are not presentation data)")
	}
	return nil
}
