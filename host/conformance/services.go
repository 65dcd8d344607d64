package conformance

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Services answers the extension's requests during a check, deterministically: the
// checks know in advance what every answer will be. It mirrors the reference host's
// rules that an SDK must propagate (allowlists, integrity, preconditions, owner
// correlation) without its storage, so a check's outcome depends on the extension only.
type Services struct {
	s       *Session
	ext     *Extension
	secrets map[string]string
	scratch string

	mu        sync.Mutex
	calls     []Notification // every request received, in order
	kv        map[string]json.RawMessage
	revision  int
	tools     []string // the accepted catalog; nil until the first change
	artifacts int
	agents    []json.RawMessage // agent/spawn params, agent-<i+1> each
	lastTask  string            // the task_name of the last agent/spawn
	approvals map[string]approval
	refusals  map[string]*RPCError // method → the error its next call answers (Refuse)
}

func newServices(s *Session, ext *Extension, secrets map[string]string, scratch string) *Services {
	return &Services{s: s, ext: ext, secrets: secrets, scratch: scratch, kv: map[string]json.RawMessage{}}
}

// Calls returns the extension's requests with the given method, in arrival order.
func (v *Services) Calls(method string) []Notification {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []Notification
	for _, c := range v.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// Refuse makes the next request with that method answer err instead of being
// served, so a check can see a host error of any code carried verbatim.
func (v *Services) Refuse(method string, err *RPCError) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.refusals == nil {
		v.refusals = map[string]*RPCError{}
	}
	v.refusals[method] = err
}

func invalid(format string, args ...any) *RPCError {
	return &RPCError{Code: -32602, Message: fmt.Sprintf(format, args...)}
}

func (v *Services) handle(method string, params json.RawMessage) (any, *RPCError) {
	v.mu.Lock()
	v.calls = append(v.calls, Notification{Method: method, Params: params})
	refusal := v.refusals[method]
	delete(v.refusals, method)
	v.mu.Unlock()
	if refusal != nil {
		return nil, refusal
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil && len(params) > 0 {
		return nil, invalid("params must be an object: %v", err)
	}
	switch method {
	case "kv.get":
		return v.kvGet(p)
	case "kv.commit":
		return v.kvCommit(p)
	case "kv.list":
		return v.kvList(p)
	case "artifact/publish":
		if err := v.parent(p); err != nil {
			return nil, err
		}
		return v.publish(p)
	case "secret/get":
		if err := v.parent(p); err != nil {
			return nil, err
		}
		return v.secret(p)
	case "confirmation/request":
		var msg string
		_ = json.Unmarshal(p["message"], &msg)
		return map[string]any{"confirmed": !strings.Contains(msg, "deny")}, nil
	case "input/request":
		if err := v.parent(p); err != nil {
			return nil, err
		}
		var prompt string
		_ = json.Unmarshal(p["prompt"], &prompt)
		if strings.TrimSpace(prompt) == "" {
			return nil, invalid("prompt must contain a non-whitespace character")
		}
		if prompt == UnavailablePrompt {
			return nil, &RPCError{Code: -32002, Message: "no one is there to answer input"}
		}
		if strings.Contains(prompt, "cancel") {
			return map[string]any{"value": nil}, nil
		}
		return map[string]any{"value": "answer:" + prompt}, nil
	case "policy/evaluate":
		if err := v.parent(p); err != nil {
			return nil, err
		}
		return v.policy(p)
	case "tools/register", "tools/unregister":
		return v.catalog(method, p)
	case "agent/spawn":
		if err := v.parent(p); err != nil {
			return nil, err
		}
		return v.spawn(p)
	case "agent/wait":
		v.mu.Lock()
		last := v.lastTask
		v.mu.Unlock()
		if last == WaitRejectedTask {
			return nil, &RPCError{Code: -32002, Message: "the child-session service stopped answering waits"}
		}
		return map[string]any{"timed_out": false, "agents": []any{}}, nil
	case "agent/list", "agent/models", "agent/message", "agent/follow_up", "agent/interrupt":
		if err := v.parent(p); err != nil {
			return nil, err
		}
		return v.agentOp(method, p)
	}
	return nil, &RPCError{Code: -32601, Message: "method not found: " + method}
}

// parent checks parent_request_id names a host request the extension is serving.
func (v *Services) parent(p map[string]json.RawMessage) *RPCError {
	id, err := strconv.ParseInt(string(p["parent_request_id"]), 10, 64)
	if err != nil {
		return invalid("parent_request_id %s is not one of the host's request ids", p["parent_request_id"])
	}
	v.s.mu.Lock()
	_, serving := v.s.pending[id]
	v.s.mu.Unlock()
	if !serving {
		return invalid("parent_request_id %d is not a request the extension is serving", id)
	}
	return nil
}

func (v *Services) namespaceOK(ns string) bool {
	name := v.ext.Manifest.Name
	return ns == name || strings.HasPrefix(ns, name+".") && len(ns) > len(name)+1
}

func version(value json.RawMessage) string {
	var x any
	_ = json.Unmarshal(value, &x)
	canon, _ := json.Marshal(x) // map keys sorted: canonical enough for equality
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:])
}

func (v *Services) kvGet(p map[string]json.RawMessage) (any, *RPCError) {
	var ns, key string
	_ = json.Unmarshal(p["namespace"], &ns)
	_ = json.Unmarshal(p["key"], &key)
	if !v.namespaceOK(ns) {
		return nil, invalid("namespace %q belongs to another extension", ns)
	}
	v.mu.Lock()
	val, ok := v.kv[ns+"\x00"+key]
	v.mu.Unlock()
	if !ok {
		return map[string]any{"found": false}, nil
	}
	return map[string]any{"found": true, "value": val, "version": version(val)}, nil
}

func (v *Services) kvCommit(p map[string]json.RawMessage) (any, *RPCError) {
	var req struct {
		Preconditions []struct {
			Namespace string  `json:"namespace"`
			Key       string  `json:"key"`
			Version   *string `json:"version"`
			Absent    bool    `json:"absent"`
		} `json:"preconditions"`
		Writes []struct {
			Op        string          `json:"op"`
			Namespace string          `json:"namespace"`
			Key       string          `json:"key"`
			Value     json.RawMessage `json:"value"`
		} `json:"writes"`
	}
	raw, _ := json.Marshal(p)
	if err := json.Unmarshal(raw, &req); err != nil || len(req.Writes) == 0 {
		return nil, invalid("kv.commit needs 1..256 writes")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, c := range req.Preconditions {
		if !v.namespaceOK(c.Namespace) {
			return nil, invalid("namespace %q belongs to another extension; nothing was applied", c.Namespace)
		}
	}
	for _, w := range req.Writes {
		if !v.namespaceOK(w.Namespace) {
			return nil, invalid("namespace %q belongs to another extension; nothing was applied", w.Namespace)
		}
	}
	for _, c := range req.Preconditions {
		cur, ok := v.kv[c.Namespace+"\x00"+c.Key]
		var actual any
		if ok {
			actual = version(cur)
		}
		var expected any
		if c.Version != nil {
			expected = *c.Version
		}
		if (c.Absent && ok) || (!c.Absent && (!ok || c.Version == nil || *c.Version != version(cur))) {
			return nil, &RPCError{Code: -32005, Message: fmt.Sprintf("precondition on %s/%s failed", c.Namespace, c.Key),
				Data: mustJSON(map[string]any{"namespace": c.Namespace, "key": c.Key, "expected": expected, "actual": actual})}
		}
	}
	var versions []any
	for _, w := range req.Writes {
		k := w.Namespace + "\x00" + w.Key
		if w.Op == "delete" {
			delete(v.kv, k)
			versions = append(versions, map[string]any{"namespace": w.Namespace, "key": w.Key, "version": nil})
			continue
		}
		v.kv[k] = w.Value
		versions = append(versions, map[string]any{"namespace": w.Namespace, "key": w.Key, "version": version(w.Value)})
	}
	return map[string]any{"versions": versions}, nil
}

// catalog accepts a register or unregister and answers the whole new catalog with
// the next revision (epoch 0 is the manifest's tools).
func (v *Services) catalog(method string, p map[string]json.RawMessage) (any, *RPCError) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.tools == nil {
		v.tools = slices.Clone(v.ext.Manifest.Contributes.Tools)
	}
	if method == "tools/register" {
		var tools []struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(p["tools"], &tools); err != nil || len(tools) == 0 || len(tools) > 256 {
			return nil, invalid("tools must be 1..256 tool definitions")
		}
		for _, t := range tools {
			if !toolName.MatchString(t.Name) {
				return nil, invalid("tool name %q must match %s", t.Name, toolName)
			}
			if !slices.Contains(v.tools, t.Name) {
				v.tools = append(v.tools, t.Name)
			}
		}
	} else {
		var names []string
		if err := json.Unmarshal(p["names"], &names); err != nil || len(names) == 0 || len(names) > 256 {
			return nil, invalid("names must be 1..256 tool names")
		}
		for _, n := range names {
			if !slices.Contains(v.tools, n) {
				return nil, invalid("tool %q is not in the catalog", n)
			}
			v.tools = slices.DeleteFunc(v.tools, func(t string) bool { return t == n })
		}
	}
	v.revision++
	return map[string]any{"revision": v.revision, "tools": slices.Clone(v.tools)}, nil
}

// Inputs the services refuse on purpose, so checks can see a host error carried.
const (
	RejectedMIME = "application/x-conformance-reject" // artifact/publish → -32002
	RejectedTask = "conformance_rejected"             // agent/spawn → -32002
	// WaitRejectedTask spawns, then makes the agent/wait after it answer -32002.
	WaitRejectedTask = "conformance_wait_rejected"
	// UnavailablePrompt makes input/request answer -32002 (no interactive user).
	UnavailablePrompt = "conformance: nobody is there"
)

var toolName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (v *Services) publish(p map[string]json.RawMessage) (any, *RPCError) {
	var data []byte
	if raw, ok := p["data"]; ok {
		var b64 string
		_ = json.Unmarshal(raw, &b64)
		d, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, invalid("data is not base64: %v", err)
		}
		data = d
	} else {
		var rel, sum string
		var size int64
		_ = json.Unmarshal(p["path"], &rel)
		_ = json.Unmarshal(p["sha256"], &sum)
		if err := json.Unmarshal(p["size"], &size); err != nil {
			return nil, invalid("size must be an integer")
		}
		if !hex64.MatchString(sum) {
			return nil, invalid("sha256 must be 64 lowercase hex digits")
		}
		full := filepath.Join(v.scratch, filepath.Clean("/"+rel))
		d, err := os.ReadFile(full)
		if err != nil {
			return nil, &RPCError{Code: -32002, Message: fmt.Sprintf("artifact path %q cannot be read", rel)}
		}
		if int64(len(d)) != size {
			return nil, invalid("artifact size %d does not match the file's %d bytes", size, len(d))
		}
		if got := sha256.Sum256(d); hex.EncodeToString(got[:]) != sum {
			return nil, invalid("artifact sha256 %s does not match the file's %s", sum, hex.EncodeToString(got[:]))
		}
		data = d
	}
	sum := sha256.Sum256(data)
	var mime string
	_ = json.Unmarshal(p["mime_type"], &mime)
	if mime == RejectedMIME {
		return nil, &RPCError{Code: -32002, Message: "the artifact store rejected " + mime}
	}
	v.mu.Lock()
	v.artifacts++
	id := fmt.Sprintf("artifact-%d", v.artifacts)
	v.mu.Unlock()
	return map[string]any{"artifact_id": id, "size": len(data), "sha256": hex.EncodeToString(sum[:])}, nil
}

func (v *Services) secret(p map[string]json.RawMessage) (any, *RPCError) {
	var name string
	_ = json.Unmarshal(p["name"], &name)
	if !slices.Contains(v.ext.Manifest.Capabilities.Secrets, name) {
		return nil, invalid("secret %q is not in the manifest's allowlist", name)
	}
	if v.secrets == nil {
		return nil, &RPCError{Code: -32002, Message: "the secret broker is unavailable"}
	}
	val, ok := v.secrets[name]
	if !ok {
		return nil, &RPCError{Code: -32004, Message: fmt.Sprintf("secret %q is not available", name)}
	}
	return map[string]any{"value": val}, nil
}

var name48 = regexp.MustCompile(`^[a-z0-9_-]{1,48}$`)

// spawn checks the child-session bounds of wire.md §6 and starts nothing.
func (v *Services) spawn(p map[string]json.RawMessage) (any, *RPCError) {
	var req struct {
		TaskName string `json:"task_name"`
		Message  string `json:"message"`
		Key      string `json:"idempotency_key"`
		Policy   struct {
			Tools                 []string `json:"tools"`
			MaxDepth              int      `json:"max_depth"`
			MaxConcurrentChildren int      `json:"max_concurrent_children"`
			MaxTurns              int      `json:"max_turns"`
			MaxTokens             *int     `json:"max_tokens"`
			MaxOutputBytes        int      `json:"max_output_bytes"`
			TimeoutMS             int      `json:"timeout_ms"`
		} `json:"policy"`
	}
	raw, _ := json.Marshal(p)
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, invalid("agent/spawn params: %v", err)
	}
	pol := req.Policy
	if req.TaskName == RejectedTask {
		return nil, &RPCError{Code: -32002, Message: "child sessions are at capacity", Data: mustJSON(map[string]any{"reason": "capacity"})}
	}
	switch {
	case !name48.MatchString(req.TaskName):
		return nil, invalid("task_name %q must match ^[a-z0-9_-]{1,48}$", req.TaskName)
	case len(req.Message) == 0 || len(req.Message) > 128<<10:
		return nil, invalid("message must be 1..131072 bytes")
	case req.Key == "":
		return nil, invalid("idempotency_key is required")
	case len(pol.Tools) < 1 || len(pol.Tools) > 5 || len(duplicates(pol.Tools)) > 0:
		return nil, invalid("policy.tools must hold 1..5 unique tools")
	case pol.MaxDepth != 1:
		return nil, invalid("policy.max_depth must be 1")
	case pol.MaxConcurrentChildren < 1 || pol.MaxConcurrentChildren > 8:
		return nil, invalid("policy.max_concurrent_children must be 1..8")
	case pol.MaxTurns < 1 || pol.MaxOutputBytes < 1 || pol.TimeoutMS < 1:
		return nil, invalid("policy.max_turns, max_output_bytes and timeout_ms must be ≥ 1")
	case pol.MaxTokens != nil && (*pol.MaxTokens < 1000 || *pol.MaxTokens > 64000):
		return nil, invalid("policy.max_tokens must be null or 1000..64000")
	}
	v.mu.Lock()
	v.agents = append(v.agents, raw)
	n := len(v.agents)
	v.lastTask = req.TaskName
	v.mu.Unlock()
	return map[string]any{"agent_id": fmt.Sprintf("agent-%d", n), "session": fmt.Sprintf("agent-session:%d", n),
		"state": "running", "created": true}, nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// kvList answers one page of the namespace's keys under prefix, in key order. The
// cursor is the last key of the previous page: opaque to the extension, which
// must pass it back unchanged.
func (v *Services) kvList(p map[string]json.RawMessage) (any, *RPCError) {
	var ns, prefix, cursor string
	limit := 100
	_ = json.Unmarshal(p["namespace"], &ns)
	_ = json.Unmarshal(p["prefix"], &prefix)
	_ = json.Unmarshal(p["cursor"], &cursor)
	if raw, ok := p["limit"]; ok {
		if err := json.Unmarshal(raw, &limit); err != nil || limit < 1 || limit > 1000 {
			return nil, invalid("limit must be 1..1000")
		}
	}
	if !v.namespaceOK(ns) {
		return nil, invalid("namespace %q belongs to another extension", ns)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	var keys []string
	for k := range v.kv {
		kns, key, _ := strings.Cut(k, "\x00")
		if kns == ns && strings.HasPrefix(key, prefix) && key > cursor {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	res := map[string]any{}
	if len(keys) > limit {
		keys = keys[:limit]
		res["next_cursor"] = keys[limit-1]
	}
	entries := []any{}
	for _, key := range keys {
		val := v.kv[ns+"\x00"+key]
		entries = append(entries, map[string]any{"key": key, "value": val, "version": version(val)})
	}
	res["entries"] = entries
	return res, nil
}
