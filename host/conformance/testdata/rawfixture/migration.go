package main

import (
	"context"
	"encoding/json"
	"sync"
)

// modeKVMigrationSkipped never runs the KV migration the manifest's [state] kv_version
// asks for (state.kv_migration fails).
const modeKVMigrationSkipped = "kv-migration-skipped"

// The fixture's KV migration by hand, as the SDKs run it (state.kv_migration): before
// the first KV call, when the manifest declares kv_version 2 and octet:kv_version is
// absent or 1, migration/note becomes {"migrated": <old>} and the version 2, in one
// kv.commit pinned on the stored version.
var migration struct {
	sync.Mutex
	declared  int
	namespace string
	done      bool
}

// declareKV records what initialize's manifest declares.
func declareKV(manifest map[string]any) {
	migration.Lock()
	defer migration.Unlock()
	migration.namespace, _ = manifest["name"].(string)
	if st, ok := manifest["state"].(map[string]any); ok {
		if v, ok := st["kv_version"].(float64); ok {
			migration.declared = int(v)
		}
	}
}

func (c *conn) migrateKV(ctx context.Context) *rpcError {
	migration.Lock()
	defer migration.Unlock()
	if migration.done || mode == modeKVMigrationSkipped || migration.declared < 2 {
		return nil
	}
	ns := migration.namespace
	var version, note struct {
		Found   bool            `json:"found"`
		Value   json.RawMessage `json:"value"`
		Version string          `json:"version"`
	}
	res, e := c.call(ctx, "kv.get", map[string]any{"namespace": ns, "key": "octet:kv_version"})
	if e != nil {
		return e
	}
	_ = json.Unmarshal(res, &version)
	if version.Found && string(version.Value) != "1" {
		migration.done = true // already at 2 (a newer one is the host's to refuse)
		return nil
	}
	pin := map[string]any{"namespace": ns, "key": "octet:kv_version", "absent": true}
	if version.Found {
		pin = map[string]any{"namespace": ns, "key": "octet:kv_version", "version": version.Version}
	}
	if res, e = c.call(ctx, "kv.get", map[string]any{"namespace": ns, "key": "migration/note"}); e != nil {
		return e
	}
	_ = json.Unmarshal(res, &note)
	writes := []any{map[string]any{"op": "put", "namespace": ns, "key": "octet:kv_version", "value": 2}}
	if note.Found {
		writes = append(writes, map[string]any{"op": "put", "namespace": ns, "key": "migration/note", "value": map[string]any{"migrated": note.Value}})
	}
	if _, e := c.call(ctx, "kv.commit", map[string]any{"preconditions": []any{pin}, "writes": writes}); e != nil {
		return e
	}
	migration.done = true
	return nil
}
