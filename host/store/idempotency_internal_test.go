package store

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// TestClaimKeyLifecycle: one claim per key; a second claimant is told who holds it; a
// different call under the key sees the holder's digest; a released key is claimed again;
// a completed one returns its result; a lapsed lease is taken over.
func TestClaimKeyLifecycle(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lease := 10 * time.Second

	first, err := s.ClaimKey(ctx, "ext", "k", "d1", lease)
	if err != nil || first.Token == "" || first.Digest != "d1" {
		t.Fatalf("first claim: %+v %v", first, err)
	}
	busy, err := s.ClaimKey(ctx, "ext", "k", "d2", lease)
	if err != nil || busy.Token != "" || busy.Recorded || busy.Digest != "d1" || busy.Holder != holderSelf {
		t.Fatalf("second claim: %+v %v, want busy with the holder's digest and name", busy, err)
	}
	if err := s.ReleaseClaim(ctx, "ext", "k", first.Token); err != nil {
		t.Fatal(err)
	}
	again, err := s.ClaimKey(ctx, "ext", "k", "d1", lease)
	if err != nil || again.Token == "" || again.Token == first.Token {
		t.Fatalf("after release: %+v %v, want a new claim", again, err)
	}
	if ok, err := s.RenewClaim(ctx, "ext", "k", first.Token, lease); ok || err != nil {
		t.Fatalf("renewing a released token: %v %v", ok, err)
	}

	// The lease lapses (the holder stopped renewing): the next claimant takes over, and the
	// old holder can neither renew nor end the new claim.
	defer func() { idemNow = time.Now }()
	idemNow = func() time.Time { return time.Now().Add(lease + time.Second) }
	took, err := s.ClaimKey(ctx, "ext", "k", "d1", lease)
	if err != nil || took.Token == "" || took.Token == again.Token {
		t.Fatalf("after the lease: %+v %v, want a takeover", took, err)
	}
	if ok, _ := s.RenewClaim(ctx, "ext", "k", again.Token, lease); ok {
		t.Fatal("the lapsed holder renewed a claim it lost")
	}
	if err := s.CompleteClaim(ctx, "ext", "k", took.Token, "d1", []byte(`{"r":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.CompleteClaim(ctx, "ext", "k", again.Token, "d1", []byte(`{"r":2}`)); err != nil {
		t.Fatal(err)
	}
	rec, err := s.ClaimKey(ctx, "ext", "k", "d1", lease)
	if err != nil || !rec.Recorded || string(rec.Result) != `{"r":1}` || rec.Digest != "d1" {
		t.Fatalf("recorded: %+v %v, want the first result kept", rec, err)
	}
	if other, _ := s.ClaimKey(ctx, "other", "k", "d1", lease); other.Token == "" {
		t.Fatal("a key is per extension")
	}
}

// TestClaimOfDeadHolderIsTakenOver: a claim naming a process that has exited (killed and
// reaped) is taken over before its lease ends; one naming a live process is not.
func TestClaimOfDeadHolderIsTakenOver(t *testing.T) {
	if bootID() == "" {
		t.Skip("no /proc boot id: only the lease ends a dead holder's claim here")
	}
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	child := exec.Command("sleep", "1000")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	holder := holderOf(child.Process.Pid)
	insert := func(key string) {
		t.Helper()
		if _, err := s.db.ExecContext(ctx, `INSERT INTO idempotent_claims (extension, key, digest, token, holder, expires_at_ms) VALUES ('ext', ?, 'd', 't', ?, ?)`,
			key, holder, time.Now().Add(time.Hour).UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	insert("live")
	if c, err := s.ClaimKey(ctx, "ext", "live", "d", time.Hour); err != nil || c.Token != "" || c.Holder != holder {
		t.Fatalf("live holder: %+v %v, want busy", c, err)
	}
	_ = child.Process.Kill()
	_ = child.Wait()
	if c, err := s.ClaimKey(ctx, "ext", "live", "d", time.Hour); err != nil || c.Token == "" {
		t.Fatalf("dead holder: %+v %v, want a takeover", c, err)
	}
	if holderGone("boot=elsewhere pid=1 start=1") || holderGone("garbage") {
		t.Fatal("a holder not known dead must count as alive")
	}
}
