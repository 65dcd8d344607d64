package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
)

// Integrity is what CheckIntegrity found in a state directory's database.
type Integrity struct {
	Exists        bool
	SchemaVersion int      // the database's user_version
	Problems      []string // PRAGMA integrity_check's lines other than "ok"
}

// CheckIntegrity opens stateDir's database read-only (nothing is created, migrated or
// written) and runs PRAGMA integrity_check: `octet-host doctor`'s store check.
func CheckIntegrity(ctx context.Context, stateDir string) (Integrity, error) {
	path := filepath.Join(stateDir, DatabaseFile)
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return Integrity{}, nil
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return Integrity{}, fmt.Errorf("store: open %s: %w", path, err)
	}
	defer db.Close()
	out := Integrity{Exists: true}
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&out.SchemaVersion); err != nil {
		return out, fmt.Errorf("store: %s: %w", path, err)
	}
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return out, fmt.Errorf("store: %s: integrity_check: %w", path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return out, err
		}
		if line != "ok" {
			out.Problems = append(out.Problems, line)
		}
	}
	return out, rows.Err()
}
