package octettest

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Script is how the test host answers the reverse services. Zero values give
// deterministic defaults: confirmations false, input null, policy allow, no
// secrets (-32004), artifacts accepted after verification, a fresh KV store.
type Script struct {
	Confirm func(message string) bool
	Input   func(prompt string, secret bool) *string
	Secrets map[string]string
	Policy  func(intent map[string]any, approvalToken string) map[string]any
	// ScratchDir is where path artifacts are read from (the extension's
	// OCTET_EXTENSION_SCRATCH).
	ScratchDir string
	// AgentOutput is what scripted child agents answer.
	AgentOutput string
}

// Artifact is an artifact the host accepted.
type Artifact struct {
	ID, MIMEType, Name string
	Data               []byte
}

// services answers the extension's requests: the handlers of the descriptor table
// (routes.go) and the in-memory state they share.
type services struct {
	script *Script
	host   *Host
	kv     *kvStore
	table  map[string]route

	mu        sync.Mutex
	artifacts []Artifact
	revision  int64
	catalog   map[string]bool
	agents    []map[string]any
}

func newServices(s *Script, h *Host) *services {
	svc := &services{script: s, host: h, kv: newKVStore(), catalog: map[string]bool{}}
	svc.table = svc.routes()
	return svc
}

// Artifacts returns the artifacts accepted so far.
func (h *Host) Artifacts() []Artifact {
	h.svc.mu.Lock()
	defer h.svc.mu.Unlock()
	return append([]Artifact(nil), h.svc.artifacts...)
}

// KV returns the in-memory store (to seed or inspect).
func (h *Host) KV() map[string]json.RawMessage { return h.svc.kv.snapshot() }

func invalid(format string, args ...any) error {
	return jsonrpc.NewError(protocol.CodeInvalidParams, fmt.Sprintf(format, args...), nil)
}

func (s *services) confirm(_ context.Context, p protocol.ConfirmationRequestParams) (any, error) {
	return protocol.ConfirmationRequestResult{Confirmed: s.script.Confirm != nil && s.script.Confirm(p.Message)}, nil
}

func (s *services) input(_ context.Context, p protocol.InputRequestParams) (any, error) {
	var v *string
	if s.script.Input != nil {
		v = s.script.Input(p.Prompt, p.Secret)
	}
	return map[string]any{"value": v}, nil
}

func (s *services) secret(_ context.Context, p protocol.SecretGetParams) (any, error) {
	if v, ok := s.script.Secrets[string(p.Name)]; ok {
		return protocol.SecretGetResult{Value: v}, nil
	}
	return nil, jsonrpc.NewError(protocol.CodeSecretUnavailable, "secret is unavailable", nil)
}

// policy answers the script's result as given, so a test can send the SDK a malformed one.
func (s *services) policy(_ context.Context, p protocol.PolicyEvaluateParams) (any, error) {
	if s.script.Policy == nil {
		return map[string]any{"decision": "allow"}, nil
	}
	var intent map[string]any
	raw, _ := json.Marshal(p.Intent)
	_ = json.Unmarshal(raw, &intent)
	token := ""
	if p.ApprovalToken != nil {
		token = *p.ApprovalToken
	}
	return s.script.Policy(intent, token), nil
}

// publish verifies an artifact as the real host does: inline data decoded and bounded, path
// data read from the scratch directory with size and digest checked.
func (s *services) publish(_ context.Context, p protocol.ArtifactPublishParams) (any, error) {
	var mime, name string
	var data []byte
	switch {
	case p.ArtifactPublishInline != nil:
		in := p.ArtifactPublishInline
		mime, name = in.MIMEType, deref(in.Name)
		b, err := base64.StdEncoding.DecodeString(deref(in.Data))
		if err != nil {
			return nil, invalid("artifact data is not base64: %v", err)
		}
		if len(b) > protocol.ArtifactInlineMaxBytes {
			return nil, invalid("inline artifact of %d bytes exceeds %d", len(b), protocol.ArtifactInlineMaxBytes)
		}
		data = b
	case p.ArtifactPublishFile != nil:
		f := p.ArtifactPublishFile
		mime, name = f.MIMEType, deref(f.Name)
		b, err := os.ReadFile(filepath.Join(s.script.ScratchDir, filepath.FromSlash(f.Path)))
		if err != nil {
			return nil, jsonrpc.NewError(protocol.CodeServiceUnavailable, "artifact path unreadable: "+err.Error(), nil)
		}
		if f.Size != int64(len(b)) {
			return nil, invalid("artifact size %d does not match the file's %d bytes", f.Size, len(b))
		}
		sum := sha256.Sum256(b)
		if string(f.SHA256) != hex.EncodeToString(sum[:]) {
			return nil, invalid("artifact sha256 does not match the file")
		}
		data = b
	}
	sum := sha256.Sum256(data)
	s.mu.Lock()
	id := fmt.Sprintf("artifact-%d", len(s.artifacts)+1)
	s.artifacts = append(s.artifacts, Artifact{ID: id, MIMEType: mime, Name: name, Data: data})
	s.mu.Unlock()
	return protocol.ArtifactPublishResult{ArtifactID: id, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func (s *services) register(_ context.Context, p protocol.ToolsRegisterParams) (any, error) {
	return s.mutateCatalog(false, p.Tools, nil), nil
}

func (s *services) replace(_ context.Context, p protocol.ToolsReplaceParams) (any, error) {
	return s.mutateCatalog(true, p.Tools, nil), nil
}

func (s *services) unregister(_ context.Context, p protocol.ToolsUnregisterParams) (any, error) {
	return s.mutateCatalog(false, nil, p.Names), nil
}

// mutateCatalog applies one catalog change as one revision and answers the whole catalog.
func (s *services) mutateCatalog(replace bool, add []protocol.ToolDefinition, remove []protocol.ToolName) protocol.ToolsCatalogResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	if replace {
		clear(s.catalog)
	}
	for _, t := range add {
		s.catalog[string(t.Name)] = true
	}
	for _, n := range remove {
		delete(s.catalog, string(n))
	}
	s.revision++
	names := []protocol.ToolName{}
	for n := range s.catalog {
		names = append(names, protocol.ToolName(n))
	}
	return protocol.ToolsCatalogResult{Revision: s.revision, Tools: names}
}

// spawn is a deterministic child-session service: spawned agents settle at once with the
// scripted output; a repeated idempotency key returns the same agent.
func (s *services) spawn(_ context.Context, p protocol.AgentSpawnParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.agents {
		if a["idempotency_key"] == p.IdempotencyKey {
			return map[string]any{"agent_id": a["agent_id"], "session": a["session"], "state": a["state"], "created": false}, nil
		}
	}
	id := fmt.Sprintf("agent-%d", len(s.agents)+1)
	rec := map[string]any{
		"agent_id": id, "session": "agent-session:" + id, "task_name": p.TaskName,
		"idempotency_key": p.IdempotencyKey, "state": "settled", "policy": p.Policy, "created_at_ms": 0,
		"turns": 1, "usage": map[string]any{"input_tokens": 0, "output_tokens": 0, "cost_microdollars": 0},
		"output": s.script.AgentOutput, "timed_out": false,
	}
	s.agents = append(s.agents, rec)
	return map[string]any{"agent_id": id, "session": rec["session"], "state": "pending", "created": true}, nil
}

func (s *services) accept(context.Context, protocol.AgentMessageParams) (any, error) {
	return protocol.AgentMessageResult{Accepted: true}, nil
}

func (s *services) models(context.Context, protocol.AgentModelsParams) (any, error) {
	return map[string]any{"models": []any{map[string]any{"provider": "test", "model": "scripted"}}}, nil
}

func (s *services) list(context.Context, protocol.AgentListParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return map[string]any{"agents": append([]map[string]any{}, s.agents...)}, nil
}

func (s *services) wait(context.Context, protocol.AgentWaitParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return map[string]any{"timed_out": false, "agents": append([]map[string]any{}, s.agents...)}, nil
}

func (s *services) interrupt(context.Context, protocol.AgentInterruptParams) (any, error) {
	return protocol.AgentInterruptResult{Interrupted: false}, nil
}

// SeedKV stores value under namespace/key as a KV commit would (data an earlier
// release wrote, or another generation's write in the middle of a test).
func (h *Host) SeedKV(namespace, key string, value any) {
	raw, _ := json.Marshal(value)
	v, _ := canonical(raw)
	h.svc.kv.mu.Lock()
	defer h.svc.kv.mu.Unlock()
	h.svc.kv.data[namespace+"\x00"+key] = v
}
