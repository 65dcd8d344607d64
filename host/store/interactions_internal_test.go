package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestInteractionsMigrateFromVersion3: a store written before durable questions (schema
// version 3, every earlier migration applied) opens at the current version with an empty
// interactions table that takes a question; its other tables keep their rows.
func TestInteractionsMigrateFromVersion3(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(strings.Join(migrations[:3], "\n") + "PRAGMA user_version = 3;"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO idempotent_results (extension, key, digest, result, created_at_ms) VALUES ('e', 'k', 'd', x'7b7d', 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	st, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var v int
	if err := st.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion() || v < 4 {
		t.Fatalf("user_version %d (%v), want %d ≥ 4", v, err, SchemaVersion())
	}
	var n int
	if err := st.db.QueryRow(`SELECT count(*) FROM idempotent_results WHERE extension = 'e' AND key = 'k'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("version-3 row lost: %d rows, %v", n, err)
	}
	if err := st.AskInteraction(ctx, Interaction{ID: "q1", Run: "r", Identity: "x@/r", Extension: "x", Kind: "confirm", Key: "k", Question: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	open, err := st.OpenInteractions(ctx, "other", 10)
	if err != nil || len(open) != 1 || open[0].ID != "q1" {
		t.Fatalf("open questions after migration: %+v %v", open, err)
	}
}

// TestInteractionFirstAnswerWins: of answers raced from many goroutines, exactly one is
// taken; the same bytes again return it, other bytes are refused with it as the winner; a
// memo is handed out once; a withdrawn question takes no answer.
func TestInteractionFirstAnswerWins(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ask := func(id string) {
		t.Helper()
		if err := st.AskInteraction(ctx, Interaction{ID: id, Run: "dead", Identity: "x@/r", Extension: "x", Kind: "confirm", Key: "same", Question: []byte(`{"message":"go?"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	ask("q1")
	answers := []string{`{"confirmed":true}`, `{"confirmed":false}`}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := map[string]int{}
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := answers[i%2]
			w, err := st.AnswerInteraction(ctx, "q1", []byte(a), false)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && string(w) == a:
				won[a]++
			case errors.Is(err, ErrInteractionAnswered) && string(w) != a:
			default:
				t.Errorf("answer %s: winner %s, %v", a, w, err)
			}
		}()
	}
	wg.Wait()
	if len(won) != 1 || won[answers[0]]+won[answers[1]] != 8 {
		t.Fatalf("winners %v: want one answer taken by its 8 identical tries", won)
	}
	in, _, _ := st.InteractionByID(ctx, "q1")
	if in.State != InteractionAnswered {
		t.Fatalf("state %q", in.State)
	}
	id, memo, ok, err := st.TakeInteractionMemo(ctx, "x@/r", "confirm", "same")
	if !ok || err != nil || id != "q1" || string(memo) != string(in.Answer) {
		t.Fatalf("memo: %s %s %v %v", id, memo, ok, err)
	}
	if _, _, ok, _ := st.TakeInteractionMemo(ctx, "x@/r", "confirm", "same"); ok {
		t.Fatal("memo handed out twice")
	}
	// Still idempotent for the winner after delivery.
	if w, err := st.AnswerInteraction(ctx, "q1", in.Answer, false); err != nil || string(w) != string(in.Answer) {
		t.Fatalf("repeat after delivery: %s %v", w, err)
	}
	ask("q2")
	if _, err := st.WithdrawInteraction(ctx, "q2"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AnswerInteraction(ctx, "q2", []byte(answers[0]), false); !errors.Is(err, ErrInteractionClosed) {
		t.Fatalf("answer to a withdrawn question: %v", err)
	}
	if _, err := st.AnswerInteraction(ctx, "nope", []byte(answers[0]), false); !errors.Is(err, ErrInteractionUnknown) {
		t.Fatalf("answer to an unknown question: %v", err)
	}
	if open, _ := st.OpenInteractions(ctx, "live", 10); len(open) != 0 {
		t.Fatalf("open after answers: %+v", open)
	}
}
