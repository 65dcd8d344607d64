package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// state.kv_migration: the SDK runs the extension's declared KV migration once. The
// fixture registers one step from version 1 (docs/design/fixture.md): the value under
// migration/note becomes {"migrated": <old>}, so a second run would nest it. Three
// generations on one store: the first declares kv_version 1 and writes the note, the
// second declares 2 and must read it migrated with octet:kv_version 2 stored, the third
// (a restart at 2) must read it unchanged.

func init() {
	register(&Check{
		Name:        "state.kv_migration",
		Description: "with [state] kv_version raised from 1 to 2, the fixture's registered migration runs before its first KV call, once: the data and octet:kv_version 2 are committed together, and a restart at version 2 does not migrate again",
		Requirement: "docs/host.md#kv-migrations: SDK-run migrations, each step and its version in one KV commit",
		Tier:        Conditional,
		Tools:       []string{"kv_commit", "kv_get"},
		Features:    []protocol.Feature{protocol.FeatureKV},
		Run:         checkKVMigration,
	})
}

const migrationNoteKey = "migration/note"

func checkKVMigration(t *T) error {
	dir, err := os.MkdirTemp("", "octet-conformance-migration-")
	if err != nil {
		return err
	}
	t.cleanups = append(t.cleanups, func() { os.RemoveAll(dir) })
	ns := t.Ext.Manifest.Name
	open := func(version int) (*Session, error) {
		m := maps.Clone(t.Ext.Manifest.JSON)
		m["state"] = map[string]any{"kv_version": version}
		s, err := t.Start(StartOptions{StateDir: dir})
		if err != nil {
			return nil, err
		}
		params, resp, err := t.Initialize(s, InitOptions{Manifest: m})
		if err != nil {
			return nil, fmt.Errorf("initialize: %w", err)
		}
		if resp.Error != nil {
			return nil, fail("initialize to succeed", "%s", resp.Error)
		}
		r, probs := validateInit(params, resp.Result, t.Ext, m)
		if len(probs) > 0 {
			return nil, fail("an initialize result the host accepts", "%v", probs)
		}
		return s, needFeature(r, protocol.FeatureKV)
	}
	get := func(s *Session, key string) (json.RawMessage, error) {
		resp, err := t.toolCall(s, "kv_get", map[string]any{"namespace": ns, "key": key})
		if err != nil {
			return nil, err
		}
		var got struct {
			Found bool            `json:"found"`
			Value json.RawMessage `json:"value"`
		}
		if err := structured(resp, &got); err != nil {
			return nil, err
		}
		if !got.Found {
			return nil, nil
		}
		return got.Value, nil
	}

	s, err := open(1)
	if err != nil {
		return err
	}
	resp, err := t.toolCall(s, "kv_commit", map[string]any{"preconditions": []any{}, "writes": []any{
		map[string]any{"op": "put", "namespace": ns, "key": migrationNoteKey, "value": "v1"},
	}})
	if err != nil {
		return err
	}
	if err := structured(resp, &struct{}{}); err != nil {
		return fmt.Errorf("writing the version 1 note: %w", err)
	}
	s.close()

	migrated := `{"migrated":"v1"}`
	for run, what := range []string{"the first generation declaring kv_version 2", "a restart at kv_version 2"} {
		s, err := open(2)
		if err != nil {
			return err
		}
		note, err := get(s, migrationNoteKey)
		if err != nil {
			return err
		}
		if !jsonEqual(note, []byte(migrated)) {
			if run == 0 {
				return fail(what+" reads the note migrated once, "+migrated, "%s", excerpt(note, 200))
			}
			return fail(what+" does not migrate again: the note stays "+migrated, "%s", excerpt(note, 200))
		}
		version, err := get(s, "octet:kv_version")
		if err != nil {
			return err
		}
		if !jsonEqual(version, []byte("2")) {
			return fail(what+" stores octet:kv_version 2 with the data", "%s", excerpt(version, 100))
		}
		s.close()
	}
	return nil
}
