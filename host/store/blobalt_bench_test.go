//go:build linux

package store

import (
	"crypto/sha256"
	"hash"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// Alternatives to the host's copy, each timed with its fsync (or fdatasync) as a whole
// store-side publish of 16 MiB from a page-cached scratch file, with the CPU this
// process spent per op beside the wall time (a shared 2-core machine inflates the
// wall time, not the work). "store" is what BlobWriter does (direct writes, a writer
// and a hasher goroutine); "buffered" is the scheme before it (reads and writes through
// the page cache, writeback started per chunk), with its variations.

type copyVariant func(dst, src *os.File, n int64, h hash.Hash) error

func BenchmarkBlobAltCommit(b *testing.B) {
	for _, v := range []struct {
		name string
		copy copyVariant
		sync func(*os.File) error
	}{
		{"store+fsync", storeCopy, (*os.File).Sync},
		{"buffered+fsync", pipelinedCopy(copyChunk, true), (*os.File).Sync},
		{"buffered+fdatasync", pipelinedCopy(copyChunk, true), fdatasync},
		{"buffered-nohint+fsync", pipelinedCopy(copyChunk, false), (*os.File).Sync},
		{"buffered4MiB+fsync", pipelinedCopy(4<<20, true), (*os.File).Sync},
		{"copy_file_range+mmaphash+fsync", cfrCopy, (*os.File).Sync},
		{"buffered+nosync", pipelinedCopy(copyChunk, true), func(*os.File) error { return nil }},
	} {
		b.Run(v.name, func(b *testing.B) {
			p := scratchFile(b)
			dir := b.TempDir()
			once := func() (string, hash.Hash) {
				src, err := os.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				defer src.Close()
				dst, err := os.Create(filepath.Join(dir, "blob"))
				if err != nil {
					b.Fatal(err)
				}
				defer dst.Close()
				h := sha256.New()
				if err := v.copy(dst, src, stepBytes, h); err != nil {
					b.Fatal(err)
				}
				if err := v.sync(dst); err != nil {
					b.Fatal(err)
				}
				return dst.Name(), h
			}
			name, h := once() // untimed: check the variant copies and hashes right
			checkCopy(b, name, h)
			os.Remove(name)
			b.SetBytes(stepBytes)
			b.ResetTimer()
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				cpu0 := selfCPU()
				name, _ := once()
				cpu += selfCPU() - cpu0
				b.StopTimer()
				os.Remove(name)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

func checkCopy(b *testing.B, path string, h hash.Hash) {
	got, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	want := sha256.Sum256(stepData())
	if sha256.Sum256(got) != want || string(h.Sum(nil)) != string(want[:]) {
		b.Fatal("copy or digest differs from the source")
	}
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }

// pipelinedCopy is the store's scheme before direct writes: read into a host buffer,
// write it through the page cache, hash it on a second goroutine, optionally starting
// writeback per chunk.
func pipelinedCopy(chunk int, hint bool) copyVariant {
	return func(dst, src *os.File, n int64, h hash.Hash) error {
		free := make(chan []byte, copyBuffers)
		for range copyBuffers {
			free <- make([]byte, chunk)
		}
		hashed := make(chan []byte, copyBuffers)
		done := make(chan struct{})
		go func() {
			for b := range hashed {
				h.Write(b)
				free <- b[:cap(b)]
			}
			close(done)
		}()
		var off int64
		var err error
		for err == nil && off < n {
			b := <-free
			var k int
			k, err = io.ReadFull(src, b[:min(int64(chunk), n-off)])
			if _, werr := dst.Write(b[:k]); werr != nil {
				err = werr
			}
			if hint {
				startWriteback(dst, off, int64(k))
			}
			off += int64(k)
			hashed <- b[:k]
		}
		close(hashed)
		<-done
		return err
	}
}

// cfrCopy copies in the kernel (copy_file_range, page cache to page cache, one memcpy)
// and hashes what landed in the destination through a read-only mapping of it, chunk by
// chunk behind the copy: the digest is of the stored bytes, which the extension cannot
// reach, never of the scratch file it may still be changing.
func cfrCopy(dst, src *os.File, n int64, h hash.Hash) error {
	type span struct{ off, n int64 }
	todo := make(chan span, copyBuffers)
	done := make(chan error, 1)
	go func() {
		var err error
		for s := range todo {
			if err != nil {
				continue
			}
			m, merr := syscall.Mmap(int(dst.Fd()), s.off, int(s.n), syscall.PROT_READ, syscall.MAP_SHARED)
			if merr != nil {
				err = merr
				continue
			}
			h.Write(m)
			syscall.Munmap(m)
		}
		done <- err
	}()
	var off int64
	var err error
	for err == nil && off < n {
		k := min(int64(copyChunk), n-off)
		var got int64
		got, err = dst.ReadFrom(io.LimitReader(src, k))
		if err == nil && got != k {
			err = io.ErrUnexpectedEOF
		}
		startWriteback(dst, off, got)
		todo <- span{off, got}
		off += got
	}
	close(todo)
	if herr := <-done; err == nil {
		err = herr
	}
	return err
}

// storeCopy is BlobWriter.ReadFrom on dst (a BlobWriter around it, so the digest is
// the one the store computes).
func storeCopy(dst, src *os.File, n int64, h hash.Hash) error {
	w := &BlobWriter{f: dst, h: h}
	_, err := w.ReadFrom(io.LimitReader(src, n))
	return err
}

// BenchmarkBlobAltRawWrite: the device's side alone, 16 MiB from memory to a new file
// and fsynced, through the page cache with writeback started per chunk, or directly
// with one or several writes in flight (the device's queue depth).
func BenchmarkBlobAltRawWrite(b *testing.B) {
	data := make([]byte, stepBytes+dioAlign)
	off := int(-uintptr(unsafe.Pointer(&data[0])) & (dioAlign - 1))
	data = data[off : off+stepBytes]
	copy(data, stepData())
	for _, v := range []struct {
		name   string
		direct bool
		depth  int
	}{{"buffered+hint", false, 1}, {"direct-qd1", true, 1}, {"direct-qd2", true, 2}, {"direct-qd4", true, 4}} {
		b.Run(v.name, func(b *testing.B) {
			dir := b.TempDir()
			b.SetBytes(stepBytes)
			for i := 0; i < b.N; i++ {
				f, err := os.Create(filepath.Join(dir, "raw.bin"))
				if err != nil {
					b.Fatal(err)
				}
				if v.direct {
					if err := setDirect(f, true); err != nil {
						b.Skip("no O_DIRECT here")
					}
				}
				next := make(chan int64, stepBytes/copyChunk)
				for o := int64(0); o < stepBytes; o += copyChunk {
					next <- o
				}
				close(next)
				errs := make(chan error, v.depth)
				for range v.depth {
					go func() {
						var err error
						for o := range next {
							if _, werr := f.WriteAt(data[o:o+copyChunk], o); werr != nil && err == nil {
								err = werr
							}
							if !v.direct {
								startWriteback(f, o, copyChunk)
							}
						}
						errs <- err
					}()
				}
				for range v.depth {
					if err := <-errs; err != nil {
						b.Fatal(err)
					}
				}
				syncAndRemove(b, f)
			}
		})
	}
}
