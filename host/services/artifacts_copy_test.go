package services_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigPNG is several copy chunks long, so the pipelined copy runs more than once.
func bigPNG() []byte {
	b := bytes.Repeat([]byte("octet artifact bytes "), (5<<20)/21)
	copy(b, "\x89PNG\r\n\x1a\n")
	return b
}

// TestArtifactScratchIsCopied: the store holds its own copy, not the scratch file's
// inode (a hard link or rename would let the extension rewrite stored bytes through a
// path or descriptor it kept), so rewriting the scratch file in place after publishing
// leaves the stored blob as verified.
func TestArtifactScratchIsCopied(t *testing.T) {
	e := newEnv(t, nil)
	data := bigPNG()
	e.writeScratch("big.png", data)
	var res published
	e.ok("artifact/publish", scratchParams("big.png", data), &res)
	if res.SHA256 != sum(data) || res.Size != int64(len(data)) {
		t.Fatalf("published %+v", res)
	}
	scratch := filepath.Join(e.c.ScratchDir, "big.png")
	f, err := os.OpenFile(scratch, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xee}, 1<<20), 1<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	blob := e.st.BlobPath(res.SHA256)
	si, _ := os.Stat(scratch)
	bi, err := os.Stat(blob)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(si, bi) {
		t.Fatal("the stored blob is the scratch file's inode")
	}
	if got, err := os.ReadFile(blob); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("stored bytes changed with the scratch file (%d bytes, %v)", len(got), err)
	}
}

// TestArtifactScratchMismatchStoresNothing: a wrong digest or size over a multi-chunk
// file is refused and leaves no blob and no temp file behind.
func TestArtifactScratchMismatchStoresNothing(t *testing.T) {
	e := newEnv(t, nil)
	data := bigPNG()
	e.writeScratch("big.png", data)
	wrongSum := scratchParams("big.png", data)
	wrongSum["sha256"] = sum(append(bytes.Clone(data), 'x'))
	if err := e.fails("artifact/publish", wrongSum, -32602); !strings.Contains(err.Message, "hash to "+sum(data)) {
		t.Fatalf("message %q", err.Message)
	}
	// A wrong size is refused as well.
	short := scratchParams("big.png", data)
	short["size"] = len(data) - 1
	if err := e.fails("artifact/publish", short, -32602); !strings.Contains(err.Message, "declared") {
		t.Fatalf("message %q", err.Message)
	}
	var files []string
	filepath.WalkDir(filepath.Join(e.st.Dir(), "artifacts"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 0 {
		t.Fatalf("refused publishes left files: %v", files)
	}
}
