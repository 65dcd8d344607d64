package octettest

import (
	"context"
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

// name is the extension's own name: its namespaces are name and name + "." + suffix.
func (s *services) name() string { return s.host.opts.Manifest["name"].(string) }

func (s *services) kvGet(_ context.Context, p protocol.KVGetParams) (any, error) {
	if !ownNamespace(p.Namespace, s.name()) {
		return nil, invalid("namespace %q is not %q or %q.*", p.Namespace, s.name(), s.name())
	}
	st := s.kv
	st.mu.Lock()
	defer st.mu.Unlock()
	v, ok := st.data[p.Namespace+"\x00"+p.Key]
	if !ok {
		return protocol.KVGetResult{Found: false}, nil
	}
	_, ver := canonical(v)
	return protocol.KVGetResult{Found: true, Value: v, Version: &ver}, nil
}

func (s *services) kvList(_ context.Context, p protocol.KVListParams) (any, error) {
	if !ownNamespace(p.Namespace, s.name()) {
		return nil, invalid("namespace %q is not %q or %q.*", p.Namespace, s.name(), s.name())
	}
	st := s.kv
	st.mu.Lock()
	defer st.mu.Unlock()
	var keys []string
	for k := range st.data {
		ns, key, _ := strings.Cut(k, "\x00")
		if ns == p.Namespace && strings.HasPrefix(key, p.Prefix) {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	entries := []protocol.KVEntry{}
	for _, k := range keys {
		v := st.data[p.Namespace+"\x00"+k]
		_, ver := canonical(v)
		entries = append(entries, protocol.KVEntry{Key: k, Value: v, Version: ver})
	}
	return protocol.KVListResult{Entries: entries}, nil
}

// kvCommit applies every write if every precondition holds, else nothing (-32005).
func (s *services) kvCommit(_ context.Context, p protocol.KVCommitParams) (any, error) {
	for _, w := range p.Writes {
		var ns string
		if w.KVPut != nil {
			ns = w.KVPut.Namespace
		} else {
			ns = w.KVDelete.Namespace
		}
		if !ownNamespace(ns, s.name()) {
			return nil, invalid("namespace %q is not %q or %q.*", ns, s.name(), s.name())
		}
	}
	st := s.kv
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, c := range p.Preconditions {
		var ns, key string
		var want *string
		if c.KVExpectAbsent != nil {
			ns, key = c.KVExpectAbsent.Namespace, c.KVExpectAbsent.Key
		} else {
			ns, key, want = c.KVExpectVersion.Namespace, c.KVExpectVersion.Key, &c.KVExpectVersion.Version
		}
		v, ok := st.data[ns+"\x00"+key]
		var actual *string
		if ok {
			_, ver := canonical(v)
			actual = &ver
		}
		if (want == nil && ok) || (want != nil && (actual == nil || *actual != *want)) {
			return nil, jsonrpc.NewError(protocol.CodeKVConflict, "kv precondition failed",
				map[string]any{"namespace": ns, "key": key, "expected": want, "actual": actual})
		}
	}
	versions := []any{}
	for _, w := range p.Writes {
		if d := w.KVDelete; d != nil {
			delete(st.data, d.Namespace+"\x00"+d.Key)
			versions = append(versions, map[string]any{"namespace": d.Namespace, "key": d.Key, "version": nil})
			continue
		}
		v, ver := canonical(w.KVPut.Value)
		st.data[w.KVPut.Namespace+"\x00"+w.KVPut.Key] = v
		versions = append(versions, map[string]any{"namespace": w.KVPut.Namespace, "key": w.KVPut.Key, "version": ver})
	}
	return map[string]any{"versions": versions}, nil
}
