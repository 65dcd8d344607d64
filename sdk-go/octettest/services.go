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

// services answers the extension's requests.
type services struct {
	script *Script
	host   *Host
	kv     *kvStore

	mu        sync.Mutex
	artifacts []Artifact
	revision  int64
	catalog   map[string]bool
	agents    []map[string]any
}

func newServices(s *Script, h *Host) *services {
	return &services{script: s, host: h, kv: newKVStore(), catalog: map[string]bool{}}
}

// Artifacts returns the artifacts accepted so far.
func (h *Host) Artifacts() []Artifact {
	h.svc.mu.Lock()
	defer h.svc.mu.Unlock()
	return append([]Artifact(nil), h.svc.artifacts...)
}

// KV returns the in-memory store (to seed or inspect).
func (h *Host) KV() map[string]json.RawMessage { return h.svc.kv.snapshot() }

func decode(req *jsonrpc.Request) (map[string]any, error) {
	var p map[string]any
	if err := json.Unmarshal(req.Params, &p); err != nil {
		return nil, jsonrpc.NewError(protocol.CodeInvalidParams, "params: "+err.Error(), nil)
	}
	return p, nil
}

func invalid(format string, args ...any) error {
	return jsonrpc.NewError(protocol.CodeInvalidParams, fmt.Sprintf(format, args...), nil)
}

func (s *services) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if req.IsNotification() {
		return nil, nil // recorded by the frame tap; see Host.Received
	}
	p, err := decode(req)
	if err != nil {
		return nil, err
	}
	switch req.Method {
	case protocol.MethodConfirmationRequest:
		msg, _ := p["message"].(string)
		ok := s.script.Confirm != nil && s.script.Confirm(msg)
		return map[string]any{"confirmed": ok}, nil
	case protocol.MethodInputRequest:
		prompt, _ := p["prompt"].(string)
		secret, _ := p["secret"].(bool)
		var v *string
		if s.script.Input != nil {
			v = s.script.Input(prompt, secret)
		}
		return map[string]any{"value": v}, nil
	case protocol.MethodSecretGet:
		name, _ := p["name"].(string)
		if v, ok := s.script.Secrets[name]; ok {
			return map[string]any{"value": v}, nil
		}
		return nil, jsonrpc.NewError(protocol.CodeSecretUnavailable, "secret is unavailable", nil)
	case protocol.MethodPolicyEvaluate:
		intent, _ := p["intent"].(map[string]any)
		token, _ := p["approval_token"].(string)
		if s.script.Policy != nil {
			return s.script.Policy(intent, token), nil
		}
		return map[string]any{"decision": "allow"}, nil
	case protocol.MethodArtifactPublish:
		return s.publish(p)
	case protocol.MethodToolsRegister, protocol.MethodToolsUnregister, protocol.MethodToolsReplace:
		return s.mutateCatalog(req.Method, p)
	case protocol.MethodAgentSpawn, protocol.MethodAgentMessage, protocol.MethodAgentFollowUp, protocol.MethodAgentModels, protocol.MethodAgentList, protocol.MethodAgentWait, protocol.MethodAgentInterrupt:
		return s.agent(req.Method, p)
	case protocol.MethodKVGet, protocol.MethodKVList, protocol.MethodKVCommit:
		return s.kv.handle(req.Method, req.Params, s.host.opts.Manifest["name"].(string))
	}
	return nil, jsonrpc.NewError(protocol.CodeMethodNotFound, "method not found: "+req.Method, map[string]string{"method": req.Method})
}

// publish verifies an artifact as the real host does: inline data decoded and
// bounded, path data read from the scratch directory with size and digest checked.
func (s *services) publish(p map[string]any) (any, error) {
	mime, _ := p["mime_type"].(string)
	name, _ := p["name"].(string)
	var data []byte
	if d, ok := p["data"].(string); ok {
		b, err := base64.StdEncoding.DecodeString(d)
		if err != nil {
			return nil, invalid("artifact data is not base64: %v", err)
		}
		if len(b) > protocol.ArtifactInlineMaxBytes {
			return nil, invalid("inline artifact of %d bytes exceeds %d", len(b), protocol.ArtifactInlineMaxBytes)
		}
		data = b
	} else {
		rel, _ := p["path"].(string)
		b, err := os.ReadFile(filepath.Join(s.script.ScratchDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, jsonrpc.NewError(protocol.CodeServiceUnavailable, "artifact path unreadable: "+err.Error(), nil)
		}
		size, _ := p["size"].(float64)
		if int64(size) != int64(len(b)) {
			return nil, invalid("artifact size %d does not match the file's %d bytes", int64(size), len(b))
		}
		sum := sha256.Sum256(b)
		if p["sha256"] != hex.EncodeToString(sum[:]) {
			return nil, invalid("artifact sha256 does not match the file")
		}
		data = b
	}
	sum := sha256.Sum256(data)
	s.mu.Lock()
	id := fmt.Sprintf("artifact-%d", len(s.artifacts)+1)
	s.artifacts = append(s.artifacts, Artifact{ID: id, MIMEType: mime, Name: name, Data: data})
	s.mu.Unlock()
	return map[string]any{"artifact_id": id, "size": len(data), "sha256": hex.EncodeToString(sum[:])}, nil
}

func (s *services) mutateCatalog(method string, p map[string]any) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if method == protocol.MethodToolsReplace {
		clear(s.catalog)
	}
	if method == protocol.MethodToolsRegister || method == protocol.MethodToolsReplace {
		tools, _ := p["tools"].([]any)
		for _, t := range tools {
			def, _ := t.(map[string]any)
			name, _ := def["name"].(string)
			s.catalog[name] = true
		}
	} else {
		names, _ := p["names"].([]any)
		for _, n := range names {
			delete(s.catalog, fmt.Sprint(n))
		}
	}
	s.revision++
	names := []string{}
	for n := range s.catalog {
		names = append(names, n)
	}
	return map[string]any{"revision": s.revision, "tools": names}, nil
}

// agent is a deterministic child-session service: spawned agents settle at once
// with the scripted output.
func (s *services) agent(method string, p map[string]any) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch method {
	case protocol.MethodAgentSpawn:
		key, _ := p["idempotency_key"].(string)
		for _, a := range s.agents {
			if a["idempotency_key"] == key {
				return map[string]any{"agent_id": a["agent_id"], "session": a["session"], "state": a["state"], "created": false}, nil
			}
		}
		id := fmt.Sprintf("agent-%d", len(s.agents)+1)
		rec := map[string]any{
			"agent_id": id, "session": "agent-session:" + id, "task_name": p["task_name"],
			"idempotency_key": key, "state": "settled", "policy": p["policy"], "created_at_ms": 0,
			"turns": 1, "usage": map[string]any{"input_tokens": 0, "output_tokens": 0, "cost_microdollars": 0},
			"output": s.script.AgentOutput, "timed_out": false,
		}
		s.agents = append(s.agents, rec)
		return map[string]any{"agent_id": id, "session": rec["session"], "state": "pending", "created": true}, nil
	case protocol.MethodAgentMessage, protocol.MethodAgentFollowUp:
		return map[string]any{"accepted": true}, nil
	case protocol.MethodAgentModels:
		return map[string]any{"models": []any{map[string]any{"provider": "test", "model": "scripted"}}}, nil
	case protocol.MethodAgentList:
		return map[string]any{"agents": append([]map[string]any{}, s.agents...)}, nil
	case protocol.MethodAgentWait:
		return map[string]any{"timed_out": false, "agents": append([]map[string]any{}, s.agents...)}, nil
	case protocol.MethodAgentInterrupt:
		return map[string]any{"interrupted": false}, nil
	}
	return nil, invalid("unknown agent method %s", method)
}

// SeedKV stores value under namespace/key as a kv.commit would (data an earlier
// release wrote, or another generation's write in the middle of a test).
func (h *Host) SeedKV(namespace, key string, value any) {
	raw, _ := json.Marshal(value)
	v, _ := canonical(raw)
	h.svc.kv.mu.Lock()
	defer h.svc.kv.mu.Unlock()
	h.svc.kv.data[namespace+"\x00"+key] = v
}
