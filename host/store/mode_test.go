package store_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The state directory holds KV values, recordings and approvals: private to the user even
// when --state names an existing world-readable directory (issue 19 finding 6: state.db
// was created 0644 and an existing directory kept its mode). The umask is cleared so the
// modes come from the store, not from the test's environment.
func TestStateDirAndDatabaseArePrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	st := open(t, dir)
	if _, err := st.DB().Exec(`CREATE TABLE mode_probe (x)`); err != nil { // makes SQLite write its -wal file
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		dir:                                0o700,
		filepath.Join(dir, "artifacts"):    0o700,
		filepath.Join(dir, "state.db"):     0o600,
		filepath.Join(dir, "state.db-wal"): 0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o, want %04o", path, got, want)
		}
	}
}
