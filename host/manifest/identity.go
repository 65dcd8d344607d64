package manifest

import "path/filepath"

// Identity is the trusted identity the host keys an extension's durable state by (KV
// namespaces, the state directory): its name plus its install root, the extension
// directory with symbolic links resolved, "name@/abs/root". Unlike Principal it survives
// an edit of the manifest and a bundle update (updated in place); unlike the bare name it
// tells apart two directories that declare the same name.
func (m *Manifest) Identity() string {
	root := m.Dir
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return m.Name + "@" + root
}

// State is the manifest's [state] table: the version of the KV data this release reads
// and writes (0: not versioned). See KVVersionKey.
type State struct {
	KVVersion int64 `json:"kv_version"`
}

// KVVersionKey is the key, in the extension's own namespace, under which its stored KV
// version lives. The SDK writes it in the same KV commit as a migration's data, so data
// and version change together; the host reads it before start to refuse a downgrade.
const KVVersionKey = "octet:kv_version"
