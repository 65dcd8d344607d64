package octettest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// kvStore is the in-memory KV service: namespaced keys, versions as the SHA-256
// of the canonical value, atomic precondition batches.
type kvStore struct {
	mu   sync.Mutex
	data map[string]json.RawMessage // namespace + "\x00" + key -> canonical value
}

func newKVStore() *kvStore { return &kvStore{data: map[string]json.RawMessage{}} }

func (s *kvStore) snapshot() map[string]json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]json.RawMessage, len(s.data))
	for k, v := range s.data {
		out[strings.Replace(k, "\x00", "/", 1)] = v
	}
	return out
}

// canonical re-encodes a value with sorted object keys (encoding/json sorts map keys).
func canonical(raw json.RawMessage) (json.RawMessage, string) {
	var v any
	_ = json.Unmarshal(raw, &v)
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return b, hex.EncodeToString(sum[:])
}

func ownNamespace(ns, name string) bool { return ns == name || strings.HasPrefix(ns, name+".") }

func (s *kvStore) handle(method string, params json.RawMessage, name string) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch method {
	case protocol.MethodKVGet:
		var p struct{ Namespace, Key string }
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, invalid("kv.get params: %v", err)
		}
		if !ownNamespace(p.Namespace, name) {
			return nil, invalid("namespace %q is not %q or %q.*", p.Namespace, name, name)
		}
		v, ok := s.data[p.Namespace+"\x00"+p.Key]
		if !ok {
			return map[string]any{"found": false}, nil
		}
		_, ver := canonical(v)
		return map[string]any{"found": true, "value": v, "version": ver}, nil
	case protocol.MethodKVList:
		var p struct {
			Namespace, Prefix string
			Limit             int
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, invalid("kv.list params: %v", err)
		}
		var keys []string
		for k := range s.data {
			ns, key, _ := strings.Cut(k, "\x00")
			if ns == p.Namespace && strings.HasPrefix(key, p.Prefix) {
				keys = append(keys, key)
			}
		}
		sort.Strings(keys)
		entries := []any{}
		for _, k := range keys {
			v := s.data[p.Namespace+"\x00"+k]
			_, ver := canonical(v)
			entries = append(entries, map[string]any{"key": k, "value": v, "version": ver})
		}
		return map[string]any{"entries": entries}, nil
	case protocol.MethodKVCommit:
		var p struct {
			Preconditions []struct {
				Namespace, Key string
				Version        *string
				Absent         bool
			} `json:"preconditions"`
			Writes []struct {
				Op, Namespace, Key string
				Value              json.RawMessage
			} `json:"writes"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, invalid("kv.commit params: %v", err)
		}
		for _, w := range p.Writes {
			if !ownNamespace(w.Namespace, name) {
				return nil, invalid("namespace %q is not %q or %q.*", w.Namespace, name, name)
			}
		}
		for _, c := range p.Preconditions {
			v, ok := s.data[c.Namespace+"\x00"+c.Key]
			var actual *string
			if ok {
				_, ver := canonical(v)
				actual = &ver
			}
			if (c.Absent && ok) || (!c.Absent && (actual == nil || c.Version == nil || *actual != *c.Version)) {
				return nil, jsonrpc.NewError(protocol.CodeKVConflict, "kv precondition failed",
					map[string]any{"namespace": c.Namespace, "key": c.Key, "expected": c.Version, "actual": actual})
			}
		}
		versions := []any{}
		for _, w := range p.Writes {
			k := w.Namespace + "\x00" + w.Key
			if w.Op == "delete" {
				delete(s.data, k)
				versions = append(versions, map[string]any{"namespace": w.Namespace, "key": w.Key, "version": nil})
				continue
			}
			v, ver := canonical(w.Value)
			s.data[k] = v
			versions = append(versions, map[string]any{"namespace": w.Namespace, "key": w.Key, "version": ver})
		}
		return map[string]any{"versions": versions}, nil
	}
	return nil, invalid("unknown kv method %s", method)
}
