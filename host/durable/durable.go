// Package durable places an extension's durable state: the per-extension state directory
// kept across generations and host restarts (OCTET_EXTENSION_STATE), keyed by the
// extension's trusted identity (name plus install root, manifest.Identity) like its KV
// namespaces, and removed with the extension (bundle remove).
package durable

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// dirName is the state root's subdirectory holding every extension's state directory.
const dirName = "extensions"

// Dir is the state directory of the extension with identity under the host state
// directory stateDir: extensions/<name>-<16 hex digits of sha256(identity)>. The name keeps
// it readable; the digest tells apart two install roots declaring one name.
func Dir(stateDir, name, identity string) string {
	sum := sha256.Sum256([]byte(identity))
	return filepath.Join(stateDir, dirName, name+"-"+hex.EncodeToString(sum[:8]))
}

// Ensure creates the state directory (and its parent) owner-only, and returns it.
func Ensure(stateDir, name, identity string) (string, error) {
	d := Dir(stateDir, name, identity)
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", fmt.Errorf("cannot create the state directory %s: %w", d, err)
	}
	if err := os.Chmod(d, 0o700); err != nil {
		return "", fmt.Errorf("cannot make the state directory %s private: %w", d, err)
	}
	return d, nil
}

// Remove deletes the extension's state directory (symbolic links inside are unlinked,
// never followed). It reports whether there was one.
func Remove(stateDir, name, identity string) (bool, error) {
	d := Dir(stateDir, name, identity)
	if _, err := os.Lstat(d); os.IsNotExist(err) {
		return false, nil
	}
	if err := os.RemoveAll(d); err != nil {
		return true, fmt.Errorf("cannot remove the state directory %s: %w", d, err)
	}
	return true, nil
}
