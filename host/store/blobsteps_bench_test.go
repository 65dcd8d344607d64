package store

import (
	"context"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The steps of one 16 MiB scratch-path publish, each measured alone on the store's
// filesystem (b.TempDir, the same disk as octet-bench's store and scratch), so the
// end-to-end figure of BenchmarkHostArtifactGo16MiB (bench/internal/target) can be
// split into what the extension and the host each spend. MB/s via b.SetBytes.

const stepBytes = 16 << 20

func stepData() []byte {
	b := make([]byte, stepBytes)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// BenchmarkBlobStepHash: SHA-256 of 16 MiB in memory (crypto/sha256; SHA-NI on amd64
// when the CPU has it).
func BenchmarkBlobStepHash(b *testing.B) {
	data := stepData()
	b.SetBytes(stepBytes)
	for b.Loop() {
		h := sha256.New()
		h.Write(data)
		h.Sum(nil)
	}
}

// BenchmarkBlobStepScratchWrite: the extension's os.WriteFile of 16 MiB into the
// page cache (no sync), the file removed untimed.
func BenchmarkBlobStepScratchWrite(b *testing.B) {
	data := stepData()
	p := filepath.Join(b.TempDir(), "fixture.bin")
	b.SetBytes(stepBytes)
	for i := 0; i < b.N; i++ {
		if err := os.WriteFile(p, data, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.Remove(p)
		b.StartTimer()
	}
}

// scratchFile writes the 16 MiB a publish reads, so that it is in the page cache.
func scratchFile(b *testing.B) string {
	p := filepath.Join(b.TempDir(), "fixture.bin")
	if err := os.WriteFile(p, stepData(), 0o600); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkBlobStepReadHash: the host reading the page-cached scratch file in 1 MiB
// chunks and hashing it, nothing written.
func BenchmarkBlobStepReadHash(b *testing.B) {
	p := scratchFile(b)
	buf := make([]byte, copyChunk)
	b.SetBytes(stepBytes)
	for b.Loop() {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		h := sha256.New()
		if _, err := io.CopyBuffer(h, struct{ io.Reader }{f}, buf); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// stepStore opens a store in a temp dir for the copy and commit steps.
func stepStore(b *testing.B) *Store {
	st, err := Open(context.Background(), filepath.Join(b.TempDir(), "state"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// BenchmarkBlobStepCopy: the host's copy (BlobWriter.ReadFrom: read, direct write,
// hash) into the store's temp file, without the fsync; the temp file is removed
// untimed.
func BenchmarkBlobStepCopy(b *testing.B) {
	p := scratchFile(b)
	st := stepStore(b)
	b.SetBytes(stepBytes)
	for i := 0; i < b.N; i++ {
		copyOnce(b, st, p).Abort()
	}
}

func copyOnce(b *testing.B, st *Store, p string) *BlobWriter {
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w, err := st.NewBlobWriter()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(w, io.LimitReader(f, stepBytes+1)); err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkBlobStepFsync: only the fsync of a freshly copied 16 MiB temp file (the
// copy untimed; its direct writes are already on the device, so this is the journal
// commit of the file's metadata and the device's cache flush).
func BenchmarkBlobStepFsync(b *testing.B) {
	p := scratchFile(b)
	st := stepStore(b)
	b.SetBytes(stepBytes)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w := copyOnce(b, st, p)
		b.StartTimer()
		if err := w.f.Sync(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		w.Abort()
		b.StartTimer()
	}
}

// BenchmarkBlobStepCommit: the host's whole store side of a publish, copy and
// Commit (fsync, rename); the blob is removed untimed so every op writes a new one.
func BenchmarkBlobStepCommit(b *testing.B) {
	p := scratchFile(b)
	st := stepStore(b)
	b.SetBytes(stepBytes)
	for i := 0; i < b.N; i++ {
		sum, err := copyOnce(b, st, p).Commit()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.Remove(st.BlobPath(sum))
		b.StartTimer()
	}
}

// BenchmarkBlobStepRawWriteSync: the disk's bound, dd-style: 16 MiB written from
// memory in 1 MiB writes and fsynced, no read and no hash.
func BenchmarkBlobStepRawWriteSync(b *testing.B) {
	data := stepData()
	dir := b.TempDir()
	b.SetBytes(stepBytes)
	for i := 0; i < b.N; i++ {
		f, err := os.Create(filepath.Join(dir, "raw.bin"))
		if err != nil {
			b.Fatal(err)
		}
		for off := 0; off < stepBytes; off += copyChunk {
			if _, err := f.Write(data[off : off+copyChunk]); err != nil {
				b.Fatal(err)
			}
		}
		syncAndRemove(b, f)
	}
}

// syncAndRemove makes f durable (timed, as a commit's fsync is) and removes it untimed,
// so the next iteration writes a new file as a publish does.
func syncAndRemove(b *testing.B, f *os.File) {
	b.Helper()
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.StopTimer()
	os.Remove(f.Name())
	b.StartTimer()
}
