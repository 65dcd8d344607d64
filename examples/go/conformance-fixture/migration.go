package main

import (
	"context"
	"encoding/json"

	octet "github.com/octet-kit/octet/sdk-go"
)

// registerMigration: the KV migration the state.kv_migration check drives. From version 1
// the note under migration/note is wrapped as {"migrated": <old>}; run twice it would nest,
// so a second run shows. It runs only when the manifest declares [state] kv_version 2 (the
// check sends that); the fixture's own manifest declares none.
func registerMigration(ext *octet.Extension) {
	ext.Migration(1, func(ctx context.Context, tx *octet.MigrationTx) error {
		got, err := tx.Get(ctx, "", "migration/note")
		if err != nil || !got.Found {
			return err
		}
		return tx.Put("", "migration/note", map[string]json.RawMessage{"migrated": got.Value})
	})
}
