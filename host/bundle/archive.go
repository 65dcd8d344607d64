package bundle

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/octet-kit/octet/host/manifest"
)

// candidate is an archive unpacked into a staging directory, not yet validated.
type candidate struct {
	root   string          // the root directory's name, which must be the extension's name
	dir    string          // <staging>/<root>
	sha256 string          // lowercase hex SHA-256 of the archive file's bytes
	files  map[string]bool // "/"-joined paths below the root of every regular file
}

// seen is what an archive path (case-folded) already denotes.
type seen struct {
	spelling string
	dir      bool // a directory (explicit or implied by a deeper entry)
	explicit bool // the archive has an entry for it
}

// extract checks every entry of the archive at src and writes the regular files and
// directories below staging. It stops at the first refusal; the caller removes staging.
func extract(src, staging string, lim limits) (*candidate, error) {
	// O_NONBLOCK: should the path have become a FIFO since it was checked, opening it
	// does not wait for a writer; the fstat below then refuses it.
	f, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, refuse(src, RuleArchive, "cannot open the archive: %v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, refuse(src, RuleArchive, "cannot stat the archive: %v", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, refuse(src, RuleArchive, "is not a regular file; pass a .tar.gz or .tar archive")
	}
	if fi.Size() > lim.archive {
		return nil, refuse(src, RuleArchiveSize, "archive is %d bytes; at most %d allowed", fi.Size(), lim.archive)
	}
	sum := sha256.New()
	stored := &io.LimitedReader{R: f, N: lim.archive + 1}
	br := bufio.NewReader(io.TeeReader(stored, sum))
	var stream io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, refuse(src, RuleArchive, "not a readable gzip stream: %v", err)
		}
		stream = gz
	}
	expanded := &io.LimitedReader{R: stream, N: lim.expanded + headerSlack}
	// corrupt turns a read error into the refusal that explains it.
	corrupt := func(err error) error {
		switch {
		case stored.N <= 0:
			return refuse(src, RuleArchiveSize, "archive grew beyond %d bytes while being read", lim.archive)
		case expanded.N <= 0:
			return refuse(src, RuleExpandedSize, "archive expands to more than %d bytes", lim.expanded)
		}
		return refuse(src, RuleArchive, "not a readable tar or tar.gz archive: %v", err)
	}

	c := &candidate{files: map[string]bool{}}
	paths := map[string]*seen{}
	tr := tar.NewReader(expanded)
	var entries int
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, corrupt(err)
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue // PAX global metadata (git archive writes one); it names no file
		}
		if entries++; entries > lim.entries {
			return nil, refuse(hdr.Name, RuleEntryCount, "archive has more than %d entries", lim.entries)
		}
		isDir := hdr.Typeflag == tar.TypeDir
		elems, perr := entryPath(hdr.Name, isDir)
		if perr != nil {
			return nil, perr
		}
		if err := entryType(hdr); err != nil {
			return nil, err
		}
		if c.root == "" {
			c.root = elems[0]
			c.dir = filepath.Join(staging, c.root)
		} else if elems[0] != c.root {
			return nil, refuse(hdr.Name, RuleMultipleRoots, "entry is outside the root directory %q; an archive holds exactly one directory, named for the extension", c.root)
		}
		if len(elems) == 1 && !isDir {
			return nil, refuse(hdr.Name, RuleRoot, "file at the top level; put every file inside one directory named for the extension")
		}
		if len(elems) == 2 && fold(elems[1]) == fold(RecordFile) {
			return nil, refuse(hdr.Name, RuleReserved, "%s is written by the host when it installs the bundle; leave it out of the archive", RecordFile)
		}
		if err := claim(paths, hdr.Name, elems, isDir); err != nil {
			return nil, err
		}
		dst := filepath.Join(append([]string{staging}, elems...)...)
		if isDir {
			if err := mkdir(dst); err != nil {
				return nil, refuse(hdr.Name, RulePublish, "cannot create the directory in staging: %v", err)
			}
			continue
		}
		if len(elems) == 2 && elems[1] == manifest.FileName && hdr.Size > lim.manifest {
			return nil, refuse(hdr.Name, RuleManifestSize, "manifest is %d bytes; at most %d allowed", hdr.Size, lim.manifest)
		}
		if hdr.Size > lim.entry {
			return nil, refuse(hdr.Name, RuleEntrySize, "file is %d bytes; at most %d allowed", hdr.Size, lim.entry)
		}
		if total += hdr.Size; total > lim.expanded {
			return nil, refuse(hdr.Name, RuleExpandedSize, "files add up to more than %d bytes", lim.expanded)
		}
		if err := mkdir(filepath.Dir(dst)); err != nil {
			return nil, refuse(hdr.Name, RulePublish, "cannot create the directory in staging: %v", err)
		}
		if err := writeFile(dst, tr, hdr); err != nil {
			if errors.Is(err, errRead) {
				return nil, corrupt(err)
			}
			return nil, refuse(hdr.Name, RulePublish, "cannot write the file in staging: %v", err)
		}
		c.files[strings.Join(elems[1:], "/")] = true
	}
	if c.root == "" {
		return nil, refuse(src, RuleRoot, "archive holds no entries; it must hold one directory named for the extension")
	}
	// Read to the end so the digest covers the whole file and gzip verifies its checksum.
	if _, err := io.Copy(io.Discard, expanded); err != nil || expanded.N <= 0 {
		return nil, corrupt(err)
	}
	if _, err := io.Copy(io.Discard, br); err != nil {
		return nil, corrupt(err)
	}
	if stored.N <= 0 {
		return nil, corrupt(nil)
	}
	c.sha256 = hex.EncodeToString(sum.Sum(nil))
	return c, nil
}

// entryType refuses everything but regular files and directories.
func entryType(hdr *tar.Header) error {
	switch hdr.Typeflag {
	case tar.TypeReg, tar.TypeDir:
		return nil
	case tar.TypeSymlink:
		return refuse(hdr.Name, RuleLink, "symbolic link (to %q); bundles hold regular files and directories only", hdr.Linkname)
	case tar.TypeLink:
		return refuse(hdr.Name, RuleLink, "hard link (to %q); bundles hold regular files and directories only", hdr.Linkname)
	case tar.TypeChar, tar.TypeBlock:
		return refuse(hdr.Name, RuleEntryType, "device node; bundles hold regular files and directories only")
	case tar.TypeFifo:
		return refuse(hdr.Name, RuleEntryType, "FIFO; bundles hold regular files and directories only")
	}
	return refuse(hdr.Name, RuleEntryType, "entry of tar type %q is not a regular file or directory; bundles hold only those", string(hdr.Typeflag))
}

// claim records an entry's path and its parents, refusing a path seen before (also one
// differing only in case) and a path used both as a file and as a directory.
func claim(paths map[string]*seen, name string, elems []string, isDir bool) error {
	for i := 1; i < len(elems); i++ {
		parent := strings.Join(elems[:i], "/")
		if p, ok := paths[fold(parent)]; !ok {
			paths[fold(parent)] = &seen{spelling: parent, dir: true}
		} else if !p.dir {
			return refuse(name, RuleDuplicate, "%q is a file in this archive, so it cannot also be a directory", p.spelling)
		} else if p.spelling != parent {
			return refuse(name, RuleDuplicate, "directory %q differs only in case from %q; they collide on case-insensitive filesystems", parent, p.spelling)
		}
	}
	full := strings.Join(elems, "/")
	p, ok := paths[fold(full)]
	switch {
	case !ok:
		paths[fold(full)] = &seen{spelling: full, dir: isDir, explicit: true}
		return nil
	case p.spelling != full:
		return refuse(name, RuleDuplicate, "differs only in case from %q; they collide on case-insensitive filesystems", p.spelling)
	case p.dir && isDir && !p.explicit:
		p.explicit = true // a directory entry after a file inside it
		return nil
	case p.dir && !isDir:
		return refuse(name, RuleDuplicate, "%q is a directory in this archive, so it cannot also be a file", p.spelling)
	}
	return refuse(name, RuleDuplicate, "duplicate entry; every path may appear once")
}

func mkdir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.Chmod(dir, 0o755) // whatever the umask: the published tree is world-readable
}

// errRead marks a failure reading the archive (not writing the file).
var errRead = errors.New("archive read failed")

// writeFile creates dst (which must not exist) with mode 0644, or 0755 when the entry has
// any executable bit, and copies the entry's content.
func writeFile(dst string, r io.Reader, hdr *tar.Header) error {
	mode := os.FileMode(0o644)
	if hdr.Mode&0o111 != 0 {
		mode = 0o755
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	src := &readTracker{r: r}
	n, err := io.Copy(out, src)
	if cerr := out.Close(); err == nil && cerr != nil {
		return cerr
	}
	switch {
	case src.err != nil:
		return fmt.Errorf("%w: %v", errRead, src.err)
	case err != nil:
		return err
	case n != hdr.Size:
		return fmt.Errorf("%w: %d of %d bytes", errRead, n, hdr.Size)
	}
	return os.Chmod(dst, mode)
}

// readTracker remembers a read error, so it is told apart from a write error.
type readTracker struct {
	r   io.Reader
	err error
}

func (t *readTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF {
		t.err = err
	}
	return n, err
}
