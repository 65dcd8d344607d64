package bundle

import "github.com/octet-kit/octet/host/manifest"

// Bounds on an archive. They are generous for an extension (code, docs, fixtures, skills)
// and small enough that a hostile archive cannot fill the disk or exhaust memory.
const (
	// MaxArchiveBytes bounds the archive file as stored (compressed).
	MaxArchiveBytes = 64 << 20
	// MaxEntryBytes bounds one regular file inside the archive.
	MaxEntryBytes = 32 << 20
	// MaxManifestBytes bounds extension.toml; it is the manifest reader's own bound.
	MaxManifestBytes = manifest.MaxManifestBytes
	// MaxExpandedBytes bounds the sum of every regular file's size.
	MaxExpandedBytes = 128 << 20
	// MaxEntries bounds the number of entries (files and directories, the root included).
	MaxEntries = 4096
	// MaxPathBytes bounds one entry's path inside the archive, root included, so the
	// installed path stays well inside every platform's limits below a typical root.
	MaxPathBytes = 200
	// MaxPathDepth bounds how many elements an entry's path has, root included.
	MaxPathDepth = 16
	// maxRecordBytes bounds install.json when it is read back.
	maxRecordBytes = 64 << 10
	// headerSlack is what the decompressed stream may hold beyond MaxExpandedBytes:
	// tar headers and padding (512 bytes each, PAX records at most 1 MiB each).
	headerSlack = MaxEntries*2*512 + 4<<20
)

// limits are the size and count bounds one Manager applies: the constants above, smaller
// in tests so refusals are exercised without writing hundreds of megabytes.
type limits struct {
	archive, entry, manifest, expanded int64
	entries                            int
}

var defaultLimits = limits{archive: MaxArchiveBytes, entry: MaxEntryBytes, manifest: MaxManifestBytes, expanded: MaxExpandedBytes, entries: MaxEntries}
