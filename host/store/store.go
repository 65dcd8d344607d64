package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver (pure Go, no cgo)
)

// DatabaseFile is the name of the SQLite database inside the state dir.
const DatabaseFile = "state.db"

// busyTimeout is how long a writer waits for another connection's lock
// before SQLITE_BUSY surfaces; the host's writers are short transactions.
const busyTimeout = 5 * time.Second

// Store is the host's state: one SQLite database plus the artifact blob dir.
// It is safe for concurrent use.
type Store struct {
	db  *sql.DB
	dir string
	log *appendLog // group-commits events, call records and frames (appendlog.go)

	claimed sync.Map // KV identities whose legacy claim is settled (kvowner.go)
}

// Open opens (creating if needed) the store in stateDir and applies pending
// migrations. The directory is created with mode 0700: it holds KV values and
// recordings that are private to the user.
func Open(ctx context.Context, stateDir string) (*Store, error) {
	if stateDir == "" {
		return nil, errors.New("store: state directory is empty")
	}
	abs, err := filepath.Abs(stateDir)
	if err != nil {
		return nil, fmt.Errorf("store: state directory %q: %w", stateDir, err)
	}
	if err := os.MkdirAll(filepath.Join(abs, blobDir, "sha256"), 0o700); err != nil {
		return nil, fmt.Errorf("store: create state directory %q: %w", abs, err)
	}
	if err := private(abs); err != nil {
		return nil, err
	}
	dsn := "file:" + filepath.Join(abs, DatabaseFile) +
		fmt.Sprintf("?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)&_txlock=immediate",
			busyTimeout.Milliseconds())
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", dsn, err)
	}
	// A few connections let readers proceed beside the one writer WAL allows.
	db.SetMaxOpenConns(4)
	s := &Store{db: db, dir: abs}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	s.log = newAppendLog(s, EventsRetained)
	return s, nil
}

// private makes the state directory and its database owner-only: MkdirAll leaves an
// existing directory's mode alone, and SQLite creates the database with 0644 (and its
// -wal and -shm files with the database's mode), so both are set here, before the first
// connection opens the file.
func private(abs string) error {
	for _, d := range []string{abs, filepath.Join(abs, blobDir), filepath.Join(abs, blobDir, "sha256")} {
		if err := os.Chmod(d, 0o700); err != nil {
			return fmt.Errorf("store: make state directory %q private: %w", d, err)
		}
	}
	db := filepath.Join(abs, DatabaseFile)
	f, err := os.OpenFile(db, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("store: create %s: %w", db, err)
	}
	f.Close()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Chmod(db+suffix, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("store: make %s private: %w", db+suffix, err)
		}
	}
	return nil
}

// Close commits the rows still queued (events, call records, frames), then closes the
// database.
func (s *Store) Close() error {
	return errors.Join(s.log.close(), s.db.Close())
}

// Dir is the absolute state directory.
func (s *Store) Dir() string { return s.dir }

// DB exposes the database for read-only tooling (inspect). Writers go through
// the typed methods so every invariant stays in this package.
func (s *Store) DB() *sql.DB { return s.db }

// tx runs fn in one IMMEDIATE transaction (the DSN's _txlock), so writers
// serialise up front instead of failing on lock upgrade.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin transaction: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}
