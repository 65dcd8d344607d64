package services

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// presentationWording keeps the reason the host has always given for a reference member
// that belongs to another kind of reference.
var presentationWording = wording{
	"/snapshot/activities/*/reference additionalProperties": func(string) string {
		return "is not a field of this kind of reference"
	},
	"/snapshot/collection/nodes/*/reference additionalProperties": func(string) string {
		return "is not a field of this kind of reference"
	},
}

// presentation validates a snapshot completely, derives its owner and hands
// it to the rate limiter. Every refusal is a diagnostic: the method is a
// notification, so there is no response to carry an error.
func (r *Router) presentation(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	compact, err := encodedSnapshot(raw)
	if err != nil {
		return nil, err
	}
	p, err := decodeWorded[protocol.PresentationUpdateParams](raw, presentationWording)
	if err != nil {
		return nil, err
	}
	if p.ParentRequestID != nil && p.ResourceOwner != nil {
		return nil, invalidParams("resource_owner", "parent_request_id and resource_owner are mutually exclusive")
	}
	var owner *Owner
	switch {
	case p.ParentRequestID != nil:
		id := requestID(*p.ParentRequestID)
		o, ok := r.activeParent(c, id)
		if !ok {
			return nil, unavailable("parent_request_id %s is not an active host request; snapshot dropped", idText(id))
		}
		owner = &o
	case p.ResourceOwner != nil:
		o := *p.ResourceOwner
		if o.ExtensionInstanceID != c.InstanceID || o.ProcessGeneration != c.Generation || o.SessionID == "" ||
			(c.IssuedOwner != nil && !c.IssuedOwner(o)) {
			return nil, unavailable("resource_owner was not issued to this process generation; snapshot dropped")
		}
		owner = &o
	}
	if err := snapshotRules(c, &p.Snapshot); err != nil {
		return nil, err
	}
	r.submitPresentation(c, PresentationUpdate{Owner: owner, Revision: p.Snapshot.Revision, Snapshot: compact})
	return nil, nil
}

// encodedSnapshot is the snapshot member compacted, as the host stores and forwards it, and
// the rule PRESENTATION_MAX_BYTES bounds: its encoded size, which the schema cannot measure.
func encodedSnapshot(raw json.RawMessage) ([]byte, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top["snapshot"] == nil {
		return nil, nil // not an object, or no snapshot: the schema says so
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, top["snapshot"]); err != nil {
		return nil, invalidParams("snapshot", "%v", err)
	}
	if compact.Len() > presentationMaxBytes {
		return nil, invalidParams("snapshot", "is %d bytes encoded; the limit is %d", compact.Len(), presentationMaxBytes)
	}
	return compact.Bytes(), nil
}

// snapshotRules are the presentation rules the schema cannot state: ids unique within their
// list, plain text (no terminal escapes), actions naming declared commands, a tree's
// parents existing within PRESENTATION_MAX_DEPTH, reasoning within output tokens, and URLs
// that do not reach credentials or private hosts.
func snapshotRules(c *Caller, s *protocol.Snapshot) error {
	if s.Status != nil {
		if err := plainText("snapshot.status.label", s.Status.Label, false); err != nil {
			return err
		}
		if err := plainText("snapshot.status.detail", deref(s.Status.Detail), true); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for i, a := range s.Activities {
		path := fmt.Sprintf("snapshot.activities[%d]", i)
		if err := uniqueID(path+".id", a.ID, seen); err != nil {
			return err
		}
		if err := plainText(path+".label", a.Label, false); err != nil {
			return err
		}
		if err := plainText(path+".detail", deref(a.Detail), true); err != nil {
			return err
		}
		if err := referenceRules(path+".reference", a.Reference); err != nil {
			return err
		}
		if m := a.Metrics; m != nil && m.ReasoningTokens != nil {
			var out int64
			if m.OutputTokens != nil {
				out = *m.OutputTokens
			}
			if *m.ReasoningTokens > out {
				return invalidParams(path+".metrics.reasoning_tokens", "%d exceeds output_tokens %d (reasoning is a subset of output)", *m.ReasoningTokens, out)
			}
		}
	}
	if s.Collection != nil {
		if err := collectionRules(s.Collection); err != nil {
			return err
		}
	}
	seen = map[string]bool{}
	for i, a := range s.Actions {
		path := fmt.Sprintf("snapshot.actions[%d]", i)
		if err := uniqueID(path+".id", a.ID, seen); err != nil {
			return err
		}
		if err := plainText(path+".label", a.Label, false); err != nil {
			return err
		}
		if !slices.Contains(c.Commands, string(a.Command)) {
			return invalidParams(path+".command", "%q is not a command the manifest declares", a.Command)
		}
	}
	return nil
}

func collectionRules(col *protocol.Collection) error {
	parent := map[string]string{}
	seen := map[string]bool{}
	for i, n := range col.Nodes {
		path := fmt.Sprintf("snapshot.collection.nodes[%d]", i)
		if err := uniqueID(path+".id", n.ID, seen); err != nil {
			return err
		}
		if err := plainText(path+".label", n.Label, false); err != nil {
			return err
		}
		if err := referenceRules(path+".reference", n.Reference); err != nil {
			return err
		}
		if n.Parent != nil {
			if col.Kind == "list" {
				return invalidParams(path+".parent", "list nodes have no parent; use kind \"tree\"")
			}
			parent[n.ID] = *n.Parent
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
	if col.Selected != nil && !seen[*col.Selected] {
		return invalidParams("snapshot.collection.selected", "%q is not a node of this collection", *col.Selected)
	}
	if d := col.Detail; d != nil {
		if err := plainText("snapshot.collection.detail.title", deref(d.Title), false); err != nil {
			return err
		}
		if err := plainText("snapshot.collection.detail.text", d.Text, true); err != nil {
			return err
		}
	}
	return nil
}

// referenceRules: a reference's text is at most 2048 bytes of plain text, and a URL passes
// the host's URL policy (no credentials, no local or private hosts).
func referenceRules(path string, ref *protocol.Reference) error {
	if ref == nil {
		return nil
	}
	field, text := "", ""
	switch {
	case ref.SessionReference != nil:
		field, text = "session", ref.SessionReference.Session
	case ref.ArtifactReference != nil:
		field, text = "artifact_id", ref.ArtifactReference.ArtifactID
	case ref.ResourceReference != nil:
		field, text = "resource", ref.ResourceReference.Resource
	case ref.URLReference != nil:
		field, text = "url", ref.URLReference.URL
	}
	if text == "" {
		return invalidParams(path+"."+field, "is required")
	}
	if len(text) > 2048 || hasControl(text, false) {
		return invalidParams(path+"."+field, "must be at most 2048 bytes of plain text")
	}
	if ref.URLReference != nil {
		if err := checkPresentationURL(text); err != nil {
			return invalidParams(path+".url", "%v", err)
		}
	}
	return nil
}

// uniqueID is the rule that ids are unique within their list.
func uniqueID(path, id string, seen map[string]bool) error {
	if seen[id] {
		return invalidParams(path, "%q is used twice", id)
	}
	seen[id] = true
	return nil
}

// plainText is the rule that presentation text carries no control characters.
func plainText(path, s string, multiline bool) error {
	if hasControl(s, multiline) {
		return invalidParams(path, "contains control characters (terminal escapes are not presentation data)")
	}
	return nil
}
