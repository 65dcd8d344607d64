package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/store"
)

func open(t testing.TB, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestOpenMigratesAndUsesWAL(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir)
	var v int
	var mode string
	db := st.DB()
	db.QueryRow("PRAGMA user_version").Scan(&v)
	db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if v != store.SchemaVersion() || mode != "wal" {
		t.Fatalf("user_version %d (want %d), journal_mode %q", v, store.SchemaVersion(), mode)
	}
	st.Close()
	// Reopening applies nothing new and keeps data.
	st2 := open(t, dir)
	if _, err := st2.KVCommit(context.Background(), nil, []store.KVWrite{{Namespace: "n", Key: "k", Value: []byte(`1`)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "artifacts", "sha256")); err != nil {
		t.Fatal(err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir)
	if _, err := st.DB().Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	_, err := store.Open(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("open of a newer schema: %v", err)
	}
	if _, err := store.Open(context.Background(), ""); err == nil {
		t.Fatal("empty state dir accepted")
	}
}

func TestCanonical(t *testing.T) {
	cases := map[string]string{
		`{"b":1,"a":[true,null,"x"]}`:  `{"a":[true,null,"x"],"b":1}`,
		` { "a" : 1.0 } `:              `{"a":1}`,
		`1e3`:                          `1000`,
		`0.1`:                          `0.1`,
		`-0`:                           `0`,
		`"<&>"`:                        `"<&>"`,
		`"\u00e9"`:                     `"é"`,
		`{"z":{"y":2,"x":1},"a":"\n"}`: `{"a":"\n","z":{"x":1,"y":2}}`,
		`123456789012345678`:           `123456789012345678`,
	}
	for in, want := range cases {
		got, err := store.Canonical([]byte(in))
		if err != nil || string(got) != want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{`{"a":1,"a":2}`, `1 2`, `{`, `1e999`, ``} {
		if _, err := store.Canonical([]byte(bad)); err == nil {
			t.Errorf("Canonical(%q) accepted", bad)
		}
	}
}

func TestKVCommitAllOrNothing(t *testing.T) {
	st := open(t, t.TempDir())
	ctx := context.Background()
	v, err := st.KVCommit(ctx, []store.KVPrecondition{{Namespace: "n", Key: "a", Absent: true}},
		[]store.KVWrite{{Namespace: "n", Key: "a", Value: []byte(`{"x": 1}`)}, {Namespace: "n", Key: "b", Value: []byte(`2`)}})
	if err != nil || *v[0] != store.Digest([]byte(`{"x":1}`)) {
		t.Fatalf("commit: %v %v", v, err)
	}
	_, err = st.KVCommit(ctx, []store.KVPrecondition{{Namespace: "n", Key: "b", Absent: false, Version: *v[1]}, {Namespace: "n", Key: "a", Absent: true}},
		[]store.KVWrite{{Namespace: "n", Key: "b", Delete: true}, {Namespace: "n", Key: "c", Value: []byte(`3`)}})
	var conflict *store.KVConflict
	if !errors.As(err, &conflict) || conflict.Key != "a" || conflict.Expected != nil || *conflict.Actual != *v[0] {
		t.Fatalf("conflict: %v", err)
	}
	if _, found, _ := st.KVGet(ctx, "n", "b"); !found {
		t.Fatal("delete of a failed batch applied")
	}
	if _, found, _ := st.KVGet(ctx, "n", "c"); found {
		t.Fatal("put of a failed batch applied")
	}
	// Unicode keys list in byte order and honour the prefix exactly.
	for _, k := range []string{"é1", "e2", "é0", "éz", "f"} {
		st.KVCommit(ctx, nil, []store.KVWrite{{Namespace: "u", Key: k, Value: []byte(`0`)}})
	}
	es, more, err := st.KVList(ctx, "u", "é", "", 10)
	if err != nil || more || len(es) != 3 || es[0].Key != "é0" || es[2].Key != "éz" {
		t.Fatalf("list %+v %v %v", es, more, err)
	}
}

func TestApprovalsAndAgents(t *testing.T) {
	st := open(t, t.TempDir())
	ctx := context.Background()
	st.PutApproval(ctx, "h1", "bind", 100)
	if ok, _ := st.RedeemApproval(ctx, "h1", "other", 50); ok {
		t.Fatal("mismatched binding redeemed")
	}
	if ok, _ := st.RedeemApproval(ctx, "h1", "bind", 50); ok {
		t.Fatal("a token survived a mismatched redemption")
	}
	st.PutApproval(ctx, "h2", "bind", 100)
	if ok, _ := st.RedeemApproval(ctx, "h2", "bind", 100); ok {
		t.Fatal("expired token redeemed")
	}
	st.PutApproval(ctx, "h3", "bind", 100)
	if ok, _ := st.RedeemApproval(ctx, "h3", "bind", 99); !ok {
		t.Fatal("valid token refused")
	}
	var n int
	st.DB().QueryRow(`SELECT count(*) FROM approvals`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d approvals left", n)
	}
	row := store.AgentRow{AgentID: "a1", Principal: "p", SessionID: "s", InstanceID: "i", IdempotencyKey: "k", InputDigest: "d", Record: []byte(`{}`), Seq: 1}
	if err := st.PutAgent(ctx, row); err != nil {
		t.Fatal(err)
	}
	row.AgentID = "a2"
	if err := st.PutAgent(ctx, row); err == nil {
		t.Fatal("duplicate idempotency key in one scope accepted")
	}
	rows, _ := st.Agents(ctx, "p", "s", "i")
	if len(rows) != 1 {
		t.Fatalf("%d agents", len(rows))
	}
}

func TestArtifactsBlobAndQuota(t *testing.T) {
	st := open(t, t.TempDir())
	ctx := context.Background()
	w, err := st.NewBlobWriter()
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("hello"))
	sum, err := w.Commit()
	if err != nil || sum != store.Digest([]byte("hello")) {
		t.Fatalf("commit %s %v", sum, err)
	}
	b, err := os.ReadFile(st.BlobPath(sum))
	if err != nil || string(b) != "hello" {
		t.Fatalf("blob %q %v", b, err)
	}
	a := store.Artifact{ID: "x1", InstanceID: "i", Generation: 1, Size: 5, SHA256: sum}
	if err := st.PutArtifact(ctx, a, 1, 10); err != nil {
		t.Fatal(err)
	}
	a.ID = "x2"
	if err := st.PutArtifact(ctx, a, 1, 10); !errors.Is(err, store.ErrQuota) {
		t.Fatalf("count quota: %v", err)
	}
	a.Size = 6
	if err := st.PutArtifact(ctx, a, 5, 10); !errors.Is(err, store.ErrQuota) {
		t.Fatalf("byte quota: %v", err)
	}
	got, ok, _ := st.GetArtifact(ctx, "x1")
	if !ok || got.SHA256 != sum {
		t.Fatalf("get %+v", got)
	}
	// Aborted blobs leave nothing behind.
	w, _ = st.NewBlobWriter()
	w.Write([]byte("partial"))
	w.Abort()
	entries, _ := os.ReadDir(filepath.Join(st.Dir(), "artifacts", "tmp"))
	if len(entries) != 0 {
		t.Fatalf("temp files left: %v", entries)
	}
}

// TestKVConcurrentCreate: many writers race to create one key with an
// "absent" precondition; exactly one wins, the rest see a conflict.
func TestKVConcurrentCreate(t *testing.T) {
	st := open(t, t.TempDir())
	const writers = 8
	errs := make(chan error, writers)
	for i := 0; i < writers; i++ {
		go func(i int) {
			_, err := st.KVCommit(context.Background(), []store.KVPrecondition{{Namespace: "n", Key: "lock", Absent: true}},
				[]store.KVWrite{{Namespace: "n", Key: "lock", Value: []byte(strconv.Itoa(i))}})
			errs <- err
		}(i)
	}
	wins := 0
	for i := 0; i < writers; i++ {
		err := <-errs
		var conflict *store.KVConflict
		switch {
		case err == nil:
			wins++
		case !errors.As(err, &conflict):
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d writers created the key, want exactly 1", wins)
	}
}
