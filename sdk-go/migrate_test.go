package octet_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

// migrating is an extension whose note was a bare string in version 1 and is
// {"text": ...} from version 2; its tool reads the note through KV.
func migrating(register func(ext *octet.Extension)) *octet.Extension {
	ext := octet.New(octet.Options{Logger: octet.NewLogger(io.Discard, slog.LevelInfo)})
	octet.Tool(ext, octet.ToolSpec{Name: "read_note", Description: "Read the note"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			got, err := ext.KV.Get(ctx, "note")
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text(string(got.Value)), nil
		})
	register(ext)
	return ext
}

func noteToObject(runs *int) octet.MigrationFunc {
	return func(ctx context.Context, tx *octet.MigrationTx) error {
		*runs++
		got, err := tx.Get(ctx, "", "note")
		if err != nil || !got.Found {
			return err
		}
		var text string
		if err := json.Unmarshal(got.Value, &text); err != nil {
			return err
		}
		return tx.Put("", "note", map[string]string{"text": text})
	}
}

func startMigrating(t *testing.T, ext *octet.Extension, declared int) *octettest.Host {
	return octettest.Start(t, ext, octettest.Options{Manifest: map[string]any{
		"name": "migr", "version": "0.2.0", "state": map[string]any{"kv_version": declared},
		"contributes": map[string]any{"tools": []string{"read_note"}},
	}})
}

func TestMigrationRunsOnceBeforeTheFirstKVCall(t *testing.T) {
	runs := 0
	h := startMigrating(t, migrating(func(ext *octet.Extension) { ext.Migration(1, noteToObject(&runs)) }), 2)
	h.SeedKV("migr", "note", "hello") // version 1 data: no octet:kv_version
	for range 2 {
		res, err := h.CallTool(context.Background(), "read_note", nil)
		if err != nil || res.Text() != `{"text":"hello"}` {
			t.Fatalf("%+v %v", res, err)
		}
	}
	if runs != 1 {
		t.Fatalf("the step ran %d times, want 1", runs)
	}
	if v := string(h.KV()["migr/octet:kv_version"]); v != "2" {
		t.Fatalf("stored kv_version %q, want 2", v)
	}
}

func TestMigrationUpToDateRunsNothing(t *testing.T) {
	runs := 0
	h := startMigrating(t, migrating(func(ext *octet.Extension) { ext.Migration(1, noteToObject(&runs)) }), 2)
	h.SeedKV("migr", "note", map[string]string{"text": "new"})
	h.SeedKV("migr", "octet:kv_version", 2)
	res, err := h.CallTool(context.Background(), "read_note", nil)
	if err != nil || res.Text() != `{"text":"new"}` || runs != 0 {
		t.Fatalf("%+v %v runs=%d", res, err, runs)
	}
}

func TestMigrationFailureKeepsTheOldDataAndRetries(t *testing.T) {
	fail := true
	runs := 0
	h := startMigrating(t, migrating(func(ext *octet.Extension) {
		ext.Migration(1, func(ctx context.Context, tx *octet.MigrationTx) error {
			if fail {
				_ = tx.Put("", "note", "half-done")
				return errors.New("disk says no")
			}
			return noteToObject(&runs)(ctx, tx)
		})
	}), 2)
	h.SeedKV("migr", "note", "hello")
	_, err := h.CallTool(context.Background(), "read_note", nil)
	// The same code, message and data as the Python and TypeScript SDKs answer.
	const want = `tool "read_note" failed: MigrationError: kv_migration_failed: kv migration from version 1 to 2 failed: disk says no`
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != -32603 || we.Message != want || string(we.Data) != `{"exception":"MigrationError","tool":"read_note"}` {
		t.Fatalf("got %#v, want -32603 %q", err, want)
	}
	kv := h.KV()
	if string(kv["migr/note"]) != `"hello"` || kv["migr/octet:kv_version"] != nil {
		t.Fatalf("the failed step changed the store: %s", kv)
	}
	fail = false
	res, err := h.CallTool(context.Background(), "read_note", nil)
	if err != nil || res.Text() != `{"text":"hello"}` {
		t.Fatalf("retry: %+v %v", res, err)
	}
}

func TestMigrationGapIsNamed(t *testing.T) {
	runs := 0
	h := startMigrating(t, migrating(func(ext *octet.Extension) { ext.Migration(1, noteToObject(&runs)) }), 3)
	h.SeedKV("migr", "note", "hello")
	_, err := h.CallTool(context.Background(), "read_note", nil)
	const want = `tool "read_note" failed: MigrationError: kv_migration_missing: no kv migration from version 2 to 3 is registered (stored kv_version 2, declared 3)`
	if we, ok := err.(*jsonrpc.Error); !ok || we.Code != -32603 || we.Message != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	// Step 1->2 committed on its own; the gap stops before 3.
	if v := string(h.KV()["migr/octet:kv_version"]); v != "2" || runs != 1 {
		t.Fatalf("stored %q runs %d", v, runs)
	}
}

func TestMigrationRaceLeavesTheOtherGenerationsResult(t *testing.T) {
	var h *octettest.Host
	h = startMigrating(t, migrating(func(ext *octet.Extension) {
		ext.Migration(1, func(ctx context.Context, tx *octet.MigrationTx) error {
			// Another generation migrates between this step's read and its commit.
			h.SeedKV("migr", "note", map[string]string{"text": "theirs"})
			h.SeedKV("migr", "octet:kv_version", 2)
			return tx.Put("", "note", map[string]string{"text": "mine"})
		})
	}), 2)
	h.SeedKV("migr", "note", "hello")
	res, err := h.CallTool(context.Background(), "read_note", nil)
	if err != nil || res.Text() != `{"text":"theirs"}` {
		t.Fatalf("%+v %v (the losing step's write must not apply)", res, err)
	}
}

func TestMigrationRegistration(t *testing.T) {
	ext := octet.New(octet.Options{})
	mustPanic := func(name string, fn func()) {
		defer func() {
			if recover() == nil {
				t.Fatalf("%s did not panic", name)
			}
		}()
		fn()
	}
	step := func(context.Context, *octet.MigrationTx) error { return nil }
	mustPanic("from 0", func() { ext.Migration(0, step) })
	ext.Migration(1, step)
	mustPanic("twice", func() { ext.Migration(1, step) })
	mustPanic("nil", func() { ext.Migration(2, nil) })
}

func TestMigrationRefusesAStoredVersionThatIsNotOne(t *testing.T) {
	for stored, shown := range map[string]any{`"two"`: "two", "1.5": 1.5, "-1": -1, "true": true, `{"v":2}`: map[string]int{"v": 2}} {
		runs := 0
		h := startMigrating(t, migrating(func(ext *octet.Extension) { ext.Migration(1, noteToObject(&runs)) }), 2)
		h.SeedKV("migr", "note", "hello")
		h.SeedKV("migr", "octet:kv_version", shown)
		_, err := h.CallTool(context.Background(), "read_note", nil)
		want := `tool "read_note" failed: MigrationError: kv_migration_failed: kv migration from version 0 to 2 failed: the stored octet:kv_version is ` + stored + `, not a non-negative integer`
		if we, ok := err.(*jsonrpc.Error); !ok || we.Message != want || runs != 0 {
			t.Fatalf("stored %s: got %v (runs %d), want %q", stored, err, runs, want)
		}
	}
}

func TestMigrationRunsOnceUnderConcurrentFirstCalls(t *testing.T) {
	runs := 0
	h := startMigrating(t, migrating(func(ext *octet.Extension) { ext.Migration(1, noteToObject(&runs)) }), 2)
	h.SeedKV("migr", "note", "hello")
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			res, err := h.CallTool(context.Background(), "read_note", nil)
			if err == nil && res.Text() != `{"text":"hello"}` {
				err = errors.New("read " + res.Text())
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if runs != 1 {
		t.Fatalf("the step ran %d times under 8 concurrent first calls, want 1", runs)
	}
}

func TestMigrationHostRefusalIsWordedAsEverywhere(t *testing.T) {
	h := startMigrating(t, migrating(func(ext *octet.Extension) {
		ext.Migration(1, func(ctx context.Context, tx *octet.MigrationTx) error {
			return tx.Put("someone-else", "note", 1)
		})
	}), 2)
	_, err := h.CallTool(context.Background(), "read_note", nil)
	const prefix = `tool "read_note" failed: MigrationError: kv_migration_failed: kv migration from version 1 to 2 failed: host error -32602: `
	if we, ok := err.(*jsonrpc.Error); !ok || len(we.Message) < len(prefix) || we.Message[:len(prefix)] != prefix {
		t.Fatalf("got %v, want the prefix %q", err, prefix)
	}
}
