// The kvmigrate extension in Go (migration_test.go): the same tools and migration as the
// Python and TypeScript copies beside it.
package main

import (
	"context"
	"encoding/json"
	"fmt"

	octet "github.com/octet-kit/octet/sdk-go"
)

func main() {
	ext := octet.New(octet.Options{})
	// From version 1 the note is wrapped as {"migrated": <old>}; a second run would nest.
	ext.Migration(1, func(ctx context.Context, tx *octet.MigrationTx) error {
		got, err := tx.Get(ctx, "", "note")
		if err != nil || !got.Found {
			return err
		}
		return tx.Put("", "note", map[string]json.RawMessage{"migrated": got.Value})
	})
	octet.Tool(ext, octet.ToolSpec{Name: "remember", Description: "store a note"},
		func(ctx context.Context, a struct {
			Text string `json:"text"`
		}) (octet.Result, error) {
			value, _ := json.Marshal(a.Text)
			_, err := ext.KV.Put(ctx, "note", json.RawMessage(value))
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("stored"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "recall", Description: "read the note back"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			got, err := ext.KV.Get(ctx, "note")
			if err != nil {
				return octet.Result{}, err
			}
			var v any
			_ = json.Unmarshal(got.Value, &v)
			depth := 0
			for {
				m, ok := v.(map[string]any)
				if !ok {
					break
				}
				v, depth = m["migrated"], depth+1
			}
			return octet.Text(fmt.Sprintf("note: %v, migrated %d", v, depth)), nil
		})
	ext.Run()
}
