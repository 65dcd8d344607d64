package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Checks of the reverse services an SDK wraps: catalogs, artifacts, input and
// confirmation, secrets, presentation, child sessions and kv.

func init() {
	register(
		&Check{
			Name:        "catalog.revisions",
			Description: "dynamic tools: register, replace and unregister commit revisions +1; calls pinned to an older retained catalog_revision use that catalog; a retired revision is -32602 naming it",
			Requirement: "wire.md §10 dynamic catalogs (retain 8); §6 tools/register, tools/unregister",
			Tier:        Conditional,
			Tools:       []string{"register_dynamic", "unregister_dynamic"},
			Features:    []protocol.Feature{protocol.FeatureDynamicTools},
			Covers: []string{
				protocol.MethodToolsRegister,
				protocol.MethodToolsUnregister,
				reqError(protocol.MethodToolCall, protocol.CodeInvalidParams),
				reqError(protocol.MethodToolsRegister, protocol.CodeInvalidParams),
				reqError(protocol.MethodToolsUnregister, protocol.CodeInvalidParams),
			},
			Run: checkCatalog,
		},
		&Check{
			Name:        "artifacts.integrity",
			Description: "artifacts published inline and by path are accepted with the right size and sha256; a path publish lying about size or sha256 is refused -32602, propagated verbatim",
			Requirement: "wire.md §6 artifact/publish; docs/host.md: artifacts verified and stored",
			Tier:        Conditional,
			Tools:       []string{"publish"},
			Features:    []protocol.Feature{protocol.FeatureArtifacts},
			Covers: []string{
				protocol.MethodArtifactPublish,
				reqError(protocol.MethodArtifactPublish, protocol.CodeInvalidParams),
				reqError(protocol.MethodArtifactPublish, protocol.CodeServiceUnavailable),
			},
			Run: checkArtifacts,
		},
		&Check{
			Name:        "input.correlation",
			Description: "concurrent confirmations and input requests each carry their own parent_request_id and each answer reaches the right handler (null for a cancelled input)",
			Requirement: "wire.md §6 confirmation/request, input/request, parent_request_id",
			Tier:        Conditional,
			Tools:       []string{"ask"},
			Covers: []string{
				protocol.MethodConfirmationRequest, reqError(protocol.MethodConfirmationRequest, protocol.CodeInvalidParams),
				protocol.MethodInputRequest,
				reqError(protocol.MethodInputRequest, protocol.CodeInvalidParams),
				reqError(protocol.MethodInputRequest, protocol.CodeServiceUnavailable),
			},
			Run: checkInput,
		},
		&Check{
			Name:        "secrets.allowlist",
			Description: "a declared secret is served (only its hash leaves the handler); an undeclared name is -32602; a declared but missing one is -32004",
			Requirement: "wire.md §6 secret/get, error registry -32004",
			Tier:        Conditional,
			Tools:       []string{"secret"},
			Features:    []protocol.Feature{protocol.FeatureSecrets},
			Covers: []string{
				protocol.MethodSecretGet,
				reqError(protocol.MethodSecretGet, protocol.CodeInvalidParams),
				reqError(protocol.MethodSecretGet, protocol.CodeSecretUnavailable),
				reqError(protocol.MethodSecretGet, protocol.CodeServiceUnavailable),
			},
			Run: checkSecrets,
		},
		&Check{
			Name:        "presentation.limits",
			Description: "a snapshot within limits is published; one with 129 activities is refused -32602 locally and never sent",
			Requirement: "wire.md §7 presentation snapshot (activities ≤ 128)",
			Tier:        Conditional,
			Tools:       []string{"present"},
			Covers:      []string{protocol.MethodPresentationUpdate},
			Run:         checkPresentation,
		},
		&Check{
			Name:        "agents.child_bounds",
			Description: "spawn_child sends agent/spawn within the child-session bounds and waits; an invalid task name is refused -32602",
			Requirement: "wire.md §6 agent/spawn policy bounds, agent/wait",
			Tier:        Conditional,
			Tools:       []string{"spawn_child"},
			Features:    []protocol.Feature{protocol.FeatureAgentSessions},
			Covers: []string{
				protocol.MethodAgentSpawn,
				protocol.MethodAgentWait,
				reqError(protocol.MethodAgentSpawn, protocol.CodeInvalidParams),
				reqError(protocol.MethodAgentSpawn, protocol.CodeServiceUnavailable),
				reqError(protocol.MethodAgentWait, protocol.CodeServiceUnavailable),
			},
			Run: checkChildSession,
		},
		&Check{
			Name:        "kv.preconditions",
			Description: "kv.commit applies with satisfied preconditions; a failed one is -32005 with {namespace, key, expected, actual} and applies nothing; a foreign namespace is -32602",
			Requirement: "wire.md §6 kv.get, kv.commit; namespaced KV with precondition batches (docs/host.md)",
			Tier:        Conditional,
			Tools:       []string{"kv_commit", "kv_get"},
			Features:    []protocol.Feature{protocol.FeatureKV},
			Covers: []string{
				protocol.MethodKVGet,
				protocol.MethodKVCommit,
				reqError(protocol.MethodKVCommit, protocol.CodeKVConflict),
				reqError(protocol.MethodKVCommit, protocol.CodeInvalidParams),
				reqError(protocol.MethodKVGet, protocol.CodeInvalidParams),
			},
			Run: checkKV,
		},
	)
}

// structured decodes a successful tool result's structured_content into v.
func structured(resp Response, v any) error {
	if resp.Error != nil {
		return fail("a result", "%s", resp.Error)
	}
	var r toolResult
	if err := json.Unmarshal(resp.Result, &r); err != nil || json.Unmarshal(r.StructuredContent, v) != nil {
		return fail("a result with structured_content", "%s", excerpt(resp.Result, 200))
	}
	return nil
}

func needFeature(r *InitResult, f protocol.Feature) error {
	if !r.HasFeature(f) {
		return skip("%s was not negotiated", f)
	}
	return nil
}

func checkCatalog(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureDynamicTools); err != nil {
		return err
	}
	var rev struct {
		Revision int `json:"revision"`
	}
	change := func(tool string, args map[string]any, want int) error {
		resp, err := t.toolCall(s, tool, args)
		if err != nil {
			return err
		}
		if err := structured(resp, &rev); err != nil {
			return err
		}
		if rev.Revision != want {
			return fail(fmt.Sprintf("revision %d after %s", want, tool), "%d", rev.Revision)
		}
		return nil
	}
	pinned := func(revision int, want string) error {
		resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, map[string]any{"name": "dyn_tool", "arguments": map[string]any{}, "catalog_revision": revision})
		if err != nil {
			return err
		}
		if _, err := expectText(resp, want); err != nil {
			return fmt.Errorf("dyn_tool at catalog_revision %d: %w", revision, err)
		}
		return nil
	}
	if err := change("register_dynamic", map[string]any{"name": "dyn_tool", "text": "first"}, 1); err != nil {
		return err
	}
	if err := pinned(1, "first"); err != nil {
		return err
	}
	resp, err := t.toolCall(s, "register_dynamic", map[string]any{"name": "bad name!", "text": "x"})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "an invalid tool name refused, the catalog unchanged"); err != nil {
		return err
	}
	if err := change("register_dynamic", map[string]any{"name": "dyn_tool", "text": "second"}, 2); err != nil {
		return err
	}
	if err := pinned(2, "second"); err != nil {
		return err
	}
	if err := pinned(1, "first"); err != nil {
		return err
	}
	// A refused unregister changes nothing: the next one still commits revision 3.
	refused := refusal(-32602, "conformance: the catalog refused the change")
	s.services.Refuse(protocol.MethodToolsUnregister, refused)
	resp, err = t.toolCall(s, "unregister_dynamic", map[string]any{"name": "dyn_tool"})
	if err != nil {
		return err
	}
	if err := expectVerbatim(resp, refused, "tools/unregister refused"); err != nil {
		return err
	}
	if err := change("unregister_dynamic", map[string]any{"name": "dyn_tool"}, 3); err != nil {
		return err
	}
	resp, err = s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, map[string]any{"name": "dyn_tool", "arguments": map[string]any{}, "catalog_revision": 3})
	if err != nil {
		return err
	}
	if resp.Error == nil {
		return fail("an error calling dyn_tool after it was unregistered (revision 3)", "%s", resp)
	}
	// Eight more commits retire revision 1 (8 catalogs are retained).
	for i := range 8 {
		if err := change("register_dynamic", map[string]any{"name": fmt.Sprintf("dyn_more_%d", i), "text": "more"}, 4+i); err != nil {
			return err
		}
	}
	resp, err = s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, map[string]any{"name": "dyn_tool", "arguments": map[string]any{}, "catalog_revision": 1})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "catalog_revision 1 is retired"); err != nil {
		return err
	}
	if !strings.Contains(resp.Error.Message, "1") {
		return fail("the -32602 message to name the retired revision 1", "%q", resp.Error.Message)
	}
	t.Note("11 commits; revision 1 retired")
	return nil
}

func fixtureBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func checkArtifacts(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureArtifacts); err != nil {
		return err
	}
	for _, c := range []struct {
		mode string
		n    int
	}{{"inline", 1000}, {"path", 70000}} {
		resp, err := t.toolCall(s, "publish", map[string]any{"bytes": c.n, "mode": c.mode})
		if err != nil {
			return err
		}
		var got struct {
			ID     string `json:"artifact_id"`
			Size   int    `json:"size"`
			SHA256 string `json:"sha256"`
		}
		if err := structured(resp, &got); err != nil {
			return fmt.Errorf("publish %s: %w", c.mode, err)
		}
		if got.ID == "" || got.Size != c.n || got.SHA256 != sha(fixtureBytes(c.n)) {
			return fail(fmt.Sprintf("publish %s of %d bytes accepted with sha256 %s", c.mode, c.n, sha(fixtureBytes(c.n))), "%+v", got)
		}
	}
	for _, corrupt := range []string{"size", "sha256"} {
		resp, err := t.toolCall(s, "publish", map[string]any{"bytes": 5000, "mode": "path", "corrupt": corrupt})
		if err != nil {
			return err
		}
		if err := expectCode(resp, -32602, "the host refusing a publish with a wrong "+corrupt); err != nil {
			return err
		}
		if err := expectCarried(resp, s, protocol.MethodArtifactPublish); err != nil {
			return err
		}
	}
	want := refusal(-32002, "conformance: the artifact store is full")
	s.services.Refuse(protocol.MethodArtifactPublish, want)
	resp, err := t.toolCall(s, "publish", map[string]any{"bytes": 10, "mode": "inline"})
	if err != nil {
		return err
	}
	return expectVerbatim(resp, want, "the artifact store's refusal (service_unavailable)")
}

func checkInput(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	cases := []struct {
		args map[string]any
		want string // structured_content
	}{
		{map[string]any{"kind": "confirm", "prompt": "please approve"}, `{"answer":true}`},
		{map[string]any{"kind": "confirm", "prompt": "please deny"}, `{"answer":false}`},
		{map[string]any{"kind": "input", "prompt": "your name"}, fmt.Sprintf(`{"answer":%q}`, InputAnswers["your name"])},
		{map[string]any{"kind": "input", "prompt": "cancel me"}, `{"answer":null}`},
		{map[string]any{"kind": "input", "prompt": "a token", "secret": true}, fmt.Sprintf(`{"answer_sha256":%q}`, sha([]byte(InputAnswers["a token"])))},
	}
	ids := make([]int64, len(cases))
	errs := make([]error, len(cases))
	var wg sync.WaitGroup
	for i, c := range cases {
		id, ch, err := s.Send(protocol.MethodToolCall, map[string]any{"name": "ask", "arguments": c.args})
		if err != nil {
			return err
		}
		ids[i] = id
		wg.Go(func() {
			resp, err := t.wait(s, id, ch)
			if err == nil && resp.Error != nil {
				err = fail("a result", "%s", resp.Error)
			}
			if err == nil {
				var r toolResult
				_ = json.Unmarshal(resp.Result, &r)
				if !jsonEqual(r.StructuredContent, []byte(c.want)) {
					err = fail("structured_content "+c.want, "%s", excerpt(r.StructuredContent, 200))
				}
			}
			if err != nil {
				errs[i] = fmt.Errorf("ask %v: %w", c.args, err)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	// Each host-side request names the tool call it was made for.
	for _, method := range []string{protocol.MethodConfirmationRequest, protocol.MethodInputRequest} {
		for _, call := range s.services.Calls(method) {
			var p struct {
				Parent  json.RawMessage `json:"parent_request_id"`
				Message string          `json:"message"`
				Prompt  string          `json:"prompt"`
			}
			_ = json.Unmarshal(call.Params, &p)
			text := p.Prompt + p.Message
			i := -1
			for j, c := range cases {
				if c.args["prompt"] == text {
					i = j
				}
			}
			if i < 0 {
				return fail("prompts the fixture was given", "%s %s", method, excerpt(call.Params, 160))
			}
			if p.Parent == nil && method == protocol.MethodConfirmationRequest {
				continue // optional for confirmations
			}
			if string(p.Parent) != strconv.FormatInt(ids[i], 10) {
				return fail(fmt.Sprintf("%s for %q with parent_request_id %d", method, text, ids[i]), "%s", p.Parent)
			}
		}
	}
	// Checked last: an SDK that does not validate the prompt locally sends it to the
	// host, and that request has no case above to correlate with.
	resp, err := t.toolCall(s, "ask", map[string]any{"kind": "input", "prompt": "   "})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "an input prompt of whitespace only"); err != nil {
		return err
	}
	confirmRefused := refusal(-32602, "conformance: the confirmation was refused")
	s.services.Refuse(protocol.MethodConfirmationRequest, confirmRefused)
	resp, err = t.toolCall(s, "ask", map[string]any{"kind": "confirm", "prompt": "refused"})
	if err != nil {
		return err
	}
	if err := expectVerbatim(resp, confirmRefused, "the host's refusal of a confirmation"); err != nil {
		return err
	}
	want := refusal(-32002, "conformance: no one is there to answer input")
	s.services.Refuse(protocol.MethodInputRequest, want)
	resp, err = t.toolCall(s, "ask", map[string]any{"kind": "input", "prompt": "anyone there?"})
	if err != nil {
		return err
	}
	return expectVerbatim(resp, want, "the host's input service being unavailable")
}

func checkSecrets(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureSecrets); err != nil {
		return err
	}
	declared := t.Ext.Manifest.Capabilities.Secrets[0]
	resp, err := t.toolCall(s, "secret", map[string]any{"name": declared})
	if err != nil {
		return err
	}
	var got struct {
		SHA256 string `json:"sha256"`
	}
	if err := structured(resp, &got); err != nil {
		return err
	}
	value := t.opts.Secrets[declared]
	if got.SHA256 != sha([]byte(value)) {
		return fail(fmt.Sprintf("sha256 %s of the served value", sha([]byte(value))), "%q", got.SHA256)
	}
	resp, err = t.toolCall(s, "secret", map[string]any{"name": "undeclared.secret"})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "an undeclared secret name"); err != nil {
		return err
	}
	// A second process whose broker holds nothing: the declared name is unavailable.
	s2, err := t.Start(StartOptions{Secrets: map[string]string{}})
	if err != nil {
		return err
	}
	if _, resp, err := t.Initialize(s2, InitOptions{}); err != nil || resp.Error != nil {
		return fmt.Errorf("second session initialize: %v %v", err, resp.Error)
	}
	resp, err = t.toolCall(s2, "secret", map[string]any{"name": declared})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32004, "a declared secret the broker does not hold"); err != nil {
		return err
	}
	// The broker failing: service_unavailable, carried as is.
	want := refusal(-32002, "conformance: the secret broker is unavailable")
	s2.services.Refuse(protocol.MethodSecretGet, want)
	resp, err = t.toolCall(s2, "secret", map[string]any{"name": declared})
	if err != nil {
		return err
	}
	return expectVerbatim(resp, want, "secret/get while the broker is unavailable")
}

func checkPresentation(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	resp, err := t.toolCall(s, "present", map[string]any{"revision": 1, "activities": 3})
	if err != nil {
		return err
	}
	if resp.Error != nil {
		return fail("a snapshot with 3 activities published", "%s", resp.Error)
	}
	resp, err = t.toolCall(s, "present", map[string]any{"revision": 2, "activities": 129})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "129 activities are over the limit of 128"); err != nil {
		return err
	}
	updates := s.Notifications(protocol.MethodPresentationUpdate)
	var counts []int
	for _, u := range updates {
		var p struct {
			Snapshot struct {
				Revision   int `json:"revision"`
				Activities []struct {
					ID    string `json:"id"`
					State string `json:"state"`
				} `json:"activities"`
			} `json:"snapshot"`
		}
		_ = json.Unmarshal(u.Params, &p)
		counts = append(counts, len(p.Snapshot.Activities))
		if len(p.Snapshot.Activities) > 128 {
			return fail("no snapshot over 128 activities on the wire", "revision %d with %d activities", p.Snapshot.Revision, len(p.Snapshot.Activities))
		}
	}
	if len(counts) != 1 || counts[0] != 3 {
		return fail("exactly one presentation/update, with 3 activities", "activity counts %v", counts)
	}
	return nil
}

func checkChildSession(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureAgentSessions); err != nil {
		return err
	}
	resp, err := t.toolCall(s, "spawn_child", map[string]any{"task_name": "conformance_task", "message": "hello", "key": "k-1"})
	if err != nil {
		return err
	}
	var got struct {
		AgentID  string `json:"agent_id"`
		TimedOut bool   `json:"timed_out"`
	}
	if err := structured(resp, &got); err != nil {
		return err
	}
	spawns := s.services.Calls(protocol.MethodAgentSpawn)
	if len(spawns) != 1 {
		return fail("one agent/spawn", "%d", len(spawns))
	}
	var spawned struct {
		AgentID string `json:"agent_id"`
	}
	_ = json.Unmarshal(spawns[0].Result, &spawned)
	if got.AgentID == "" || got.AgentID != spawned.AgentID || got.TimedOut {
		return fail(fmt.Sprintf(`structured_content {"agent_id":%q,"timed_out":false} (the stock child settles at once)`, spawned.AgentID), "%+v", got)
	}
	var p struct {
		Policy json.RawMessage `json:"policy"`
	}
	_ = json.Unmarshal(spawns[0].Params, &p)
	want := `{"tools":["read"],"max_depth":1,"max_concurrent_children":1,"max_turns":1,"max_tokens":null,"max_cost_microdollars":0,"max_output_bytes":4096,"timeout_ms":10000}`
	if !jsonEqual(p.Policy, []byte(want)) {
		return fail("policy "+want, "%s", excerpt(p.Policy, 300))
	}
	if n := len(s.services.Calls(protocol.MethodAgentWait)); n != 1 {
		return fail("one agent/wait after the spawn", "%d", n)
	}
	resp, err = t.toolCall(s, "spawn_child", map[string]any{"task_name": "Not A Valid Name!", "message": "hello", "key": "k-2"})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "an invalid task_name"); err != nil {
		return err
	}
	refused := refusal(-32002, "conformance: child sessions are at capacity")
	s.services.Refuse(protocol.MethodAgentSpawn, refused)
	resp, err = t.toolCall(s, "spawn_child", map[string]any{"task_name": "conformance_task", "message": "hello", "key": "k-3"})
	if err != nil {
		return err
	}
	if err := expectVerbatim(resp, refused, "the child-session service's refusal"); err != nil {
		return err
	}
	refused = refusal(-32002, "conformance: the child-session service stopped answering waits")
	s.services.Refuse(protocol.MethodAgentWait, refused)
	resp, err = t.toolCall(s, "spawn_child", map[string]any{"task_name": "conformance_task", "message": "hello", "key": "k-4"})
	if err != nil {
		return err
	}
	return expectVerbatim(resp, refused, "agent/wait's refusal after a successful spawn")
}

func checkKV(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureKV); err != nil {
		return err
	}
	ns := t.Ext.Manifest.Name
	commit := func(pre []any, writes []any) (Response, error) {
		return t.toolCall(s, "kv_commit", map[string]any{"preconditions": pre, "writes": writes})
	}
	put := func(v any) []any {
		return []any{map[string]any{"op": "put", "namespace": ns, "key": "k", "value": v}}
	}
	var res struct {
		Versions []struct {
			Version string `json:"version"`
		} `json:"versions"`
	}
	resp, err := commit([]any{map[string]any{"namespace": ns, "key": "k", "absent": true}}, put(map[string]any{"n": 1}))
	if err != nil {
		return err
	}
	if err := structured(resp, &res); err != nil || len(res.Versions) != 1 {
		return fmt.Errorf("first commit: %v", err)
	}
	v1 := res.Versions[0].Version
	resp, err = commit([]any{map[string]any{"namespace": ns, "key": "k", "absent": true}}, put(map[string]any{"n": 9}))
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32005, "kv_conflict: the key is no longer absent"); err != nil {
		return err
	}
	wantData := fmt.Sprintf(`{"namespace":%q,"key":"k","expected":null,"actual":%q}`, ns, v1)
	if !jsonEqual(resp.Error.Data, []byte(wantData)) {
		return fail("conflict data "+wantData, "%s", excerpt(resp.Error.Data, 200))
	}
	resp, err = commit([]any{map[string]any{"namespace": ns, "key": "k", "version": v1}}, put(map[string]any{"n": 2}))
	if err != nil {
		return err
	}
	if err := structured(resp, &res); err != nil {
		return fmt.Errorf("commit with a satisfied version precondition: %w", err)
	}
	resp, err = commit([]any{map[string]any{"namespace": ns, "key": "k", "version": v1}}, put(map[string]any{"n": 3}))
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32005, "kv_conflict: a stale version precondition"); err != nil {
		return err
	}
	resp, err = commit(nil, append(put(map[string]any{"n": 4}), map[string]any{"op": "put", "namespace": "someone-else", "key": "k", "value": 1}))
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "a foreign namespace in the batch"); err != nil {
		return err
	}
	resp, err = t.toolCall(s, "kv_get", map[string]any{"namespace": "someone-else", "key": "k"})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "kv.get in a foreign namespace"); err != nil {
		return err
	}
	resp, err = t.toolCall(s, "kv_get", map[string]any{"namespace": ns, "key": "k"})
	if err != nil {
		return err
	}
	var got struct {
		Found bool            `json:"found"`
		Value json.RawMessage `json:"value"`
	}
	if err := structured(resp, &got); err != nil {
		return err
	}
	if !got.Found || !jsonEqual(got.Value, []byte(`{"n":2}`)) {
		return fail(`{"n":2}: the refused commits applied nothing`, "%s", excerpt(got.Value, 100))
	}
	return nil
}
