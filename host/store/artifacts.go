package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
)

// Artifact is the metadata row of one published artifact. Its bytes live in
// the blob directory under their SHA-256.
type Artifact struct {
	ID          string
	Extension   string
	Principal   string
	SessionID   string
	InstanceID  string
	Generation  int64
	MIMEType    string
	Name        string
	Size        int64
	SHA256      string
	CreatedAtMS int64
}

// ErrQuota is returned by PutArtifact when the generation's quota is spent.
var ErrQuota = errors.New("artifact quota exceeded")

// blobDir is the state directory's folder of artifact blobs and their temp files: a
// directory name, not the artifacts feature (the literals test lists it as a homonym).
const blobDir = "artifacts"

// BlobPath is where the bytes with this SHA-256 live:
// <state>/artifacts/sha256/ab/cdef….
func (s *Store) BlobPath(sum string) string {
	return filepath.Join(s.dir, blobDir, "sha256", sum[:2], sum[2:])
}

// BlobWriter streams bytes into a temp file beside the blob tree while
// hashing them; Commit publishes it under its digest with one rename.
type BlobWriter struct {
	s    *Store
	f    *os.File
	h    hash.Hash
	size int64

	directOn    bool  // f's descriptor has O_DIRECT set (writeChunk)
	noDirect    bool  // the filesystem refused direct writes: stay buffered
	directBytes int64 // bytes written directly, for tests
}

// NewBlobWriter starts a blob. Call Commit or Abort exactly once.
func (s *Store) NewBlobWriter() (*BlobWriter, error) {
	dir := filepath.Join(s.dir, blobDir, "tmp")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: artifact temp dir: %w", err)
	}
	f, err := os.CreateTemp(dir, "ingest-*")
	if err != nil {
		return nil, fmt.Errorf("store: artifact temp file: %w", err)
	}
	return &BlobWriter{s: s, f: f, h: sha256.New()}, nil
}

// Write appends to the blob through the page cache (small writes: inline data and
// the head ingestScratch checked; ReadFrom copies the bulk).
func (w *BlobWriter) Write(p []byte) (int, error) {
	if err := w.direct(false); err != nil {
		return 0, err
	}
	n, err := w.f.Write(p)
	w.h.Write(p[:n])
	w.size += int64(n)
	return n, err
}

// Size is the number of bytes written so far.
func (w *BlobWriter) Size() int64 { return w.size }

// Sum is the hex SHA-256 of the bytes written so far.
func (w *BlobWriter) Sum() string { return hex.EncodeToString(w.h.Sum(nil)) }

// Abort discards the temp file.
func (w *BlobWriter) Abort() {
	w.f.Close()
	os.Remove(w.f.Name())
}

// Commit syncs the bytes and renames them to their content address. An
// existing blob with the same digest is kept (same bytes by definition).
func (w *BlobWriter) Commit() (string, error) {
	sum := w.Sum()
	if err := w.f.Sync(); err != nil {
		w.Abort()
		return "", fmt.Errorf("store: sync artifact: %w", err)
	}
	if err := w.f.Close(); err != nil {
		os.Remove(w.f.Name())
		return "", fmt.Errorf("store: close artifact: %w", err)
	}
	dst := w.s.BlobPath(sum)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		os.Remove(w.f.Name())
		return "", fmt.Errorf("store: artifact dir: %w", err)
	}
	if err := os.Rename(w.f.Name(), dst); err != nil {
		os.Remove(w.f.Name())
		return "", fmt.Errorf("store: publish artifact %s: %w", sum, err)
	}
	return sum, nil
}

// PutArtifact records a, whose blob must already be committed, unless the
// generation already holds maxCount artifacts or a would push it past
// maxBytes (then ErrQuota). The check and insert share one transaction so
// concurrent publishes cannot both squeeze under the quota.
func (s *Store) PutArtifact(ctx context.Context, a Artifact, maxCount, maxBytes int64) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var n, total int64
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(size), 0) FROM artifacts WHERE instance_id = ? AND generation = ?`,
			a.InstanceID, a.Generation).Scan(&n, &total); err != nil {
			return fmt.Errorf("store: artifact usage: %w", err)
		}
		if n+1 > maxCount {
			return fmt.Errorf("%w: generation %d already holds %d artifacts (limit %d)", ErrQuota, a.Generation, n, maxCount)
		}
		if total+a.Size > maxBytes {
			return fmt.Errorf("%w: generation %d holds %d bytes; %d more exceeds %d", ErrQuota, a.Generation, total, a.Size, maxBytes)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO artifacts (id, extension, principal, session_id, instance_id, generation, mime_type, name, size, sha256, created_at_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.Extension, a.Principal, a.SessionID, a.InstanceID, a.Generation, a.MIMEType, a.Name, a.Size, a.SHA256, a.CreatedAtMS)
		if err != nil {
			return fmt.Errorf("store: record artifact %s: %w", a.ID, err)
		}
		return nil
	})
}

// GetArtifact reads an artifact's metadata.
func (s *Store) GetArtifact(ctx context.Context, id string) (Artifact, bool, error) {
	var a Artifact
	err := s.db.QueryRowContext(ctx, `SELECT id, extension, principal, session_id, instance_id, generation, mime_type, name, size, sha256, created_at_ms
		FROM artifacts WHERE id = ?`, id).Scan(&a.ID, &a.Extension, &a.Principal, &a.SessionID, &a.InstanceID, &a.Generation, &a.MIMEType, &a.Name, &a.Size, &a.SHA256, &a.CreatedAtMS)
	if errors.Is(err, sql.ErrNoRows) {
		return Artifact{}, false, nil
	}
	if err != nil {
		return Artifact{}, false, fmt.Errorf("store: artifact %s: %w", id, err)
	}
	return a, true, nil
}
