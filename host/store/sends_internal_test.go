package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// TestSendsMigration: a store at the version before the sends migration (what the host
// wrote before receipts) keeps its rows, gains the sends and receipts tables on Open, and
// records at the new version. The migration's number is looked up, not assumed, so the
// test holds wherever the migration lands in the list.
func TestSendsMigration(t *testing.T) {
	ctx := context.Background()
	at := slices.Index(migrations, sendsMigration)
	if at < 0 {
		t.Fatal("sendsMigration is not in the migration list")
	}
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	for v, m := range migrations[:at] {
		if _, err := db.Exec(m + fmt.Sprintf(";PRAGMA user_version = %d;", v+1)); err != nil {
			t.Fatalf("migration %d: %v", v+1, err)
		}
	}
	if _, err := db.Exec(`INSERT INTO idempotent_results (extension, key, digest, result, created_at_ms) VALUES ('e', 'k', 'd', '{}', 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	st, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var v int
	st.DB().QueryRow("PRAGMA user_version").Scan(&v)
	if v != SchemaVersion() || v < at+1 {
		t.Fatalf("user_version %d after Open, want %d", v, SchemaVersion())
	}
	var n int
	if err := st.DB().QueryRow(`SELECT count(*) FROM idempotent_results WHERE extension = 'e' AND key = 'k'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the row written before the migration: %d rows, %v", n, err)
	}
	id, err := st.RecordSend(ctx, SendRow{SessionID: "s", Extension: "e", Identity: "e@/x", Dir: "/x", InstanceID: "i", Generation: 1,
		Method: "tool/call", Name: "t", Input: []byte(`{"name":"t"}`), InputSHA256: "a", SentAtMS: 1})
	if err != nil {
		t.Fatal(err)
	}
	un, err := st.Unsettled(ctx)
	if err != nil || len(un) != 1 || un[0].ID != id {
		t.Fatalf("unsettled after one send: %+v, %v", un, err)
	}
}

// TestUnsettledSends: a send is unsettled until it has a final receipt, or a replay of it
// (recovery_of) has one; a replay still in flight leaves the original unsettled, and a
// replay is never itself listed.
func TestUnsettledSends(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	send := func(recoveryOf int64) int64 {
		t.Helper()
		id, err := st.RecordSend(ctx, SendRow{SessionID: "s", Extension: "e", Identity: "e@/x", Dir: "/x", InstanceID: "i", Generation: 1,
			Method: "tool/call", Name: "t", Input: []byte(`{}`), InputSHA256: "a", RecoveryOf: recoveryOf, SentAtMS: 1})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	settle := func(id int64) {
		t.Helper()
		if err := st.RecordReceipt(ctx, ReceiptRow{SendID: id, Outcome: "completed", InputSHA256: "a", SettledAtMS: 2}); err != nil {
			t.Fatal(err)
		}
	}
	ids := func() []int64 {
		t.Helper()
		un, err := st.Unsettled(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, u := range un {
			out = append(out, u.ID)
		}
		return out
	}
	a, b, c := send(0), send(0), send(0)
	settle(a)
	replay := send(b)
	if got := ids(); !slices.Equal(got, []int64{b, c}) {
		t.Fatalf("unsettled %v, want [%d %d]", got, b, c)
	}
	settle(replay)
	if got := ids(); !slices.Equal(got, []int64{c}) {
		t.Fatalf("after the replay's receipt: unsettled %v, want [%d]", got, c)
	}
	// A second receipt for a send is ignored: the first stands.
	if err := st.RecordReceipt(ctx, ReceiptRow{SendID: a, Outcome: "error", SettledAtMS: 3}); err != nil {
		t.Fatal(err)
	}
	if r, ok, _ := st.Receipt(ctx, a); !ok || r.Outcome != "completed" {
		t.Fatalf("receipt of %d: %+v", a, r)
	}
}
