package reference

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/octet-kit/octet/host/bundle"
)

// DurableSessionID is the session id of the persisted session kept in stateDir for
// workspace: "session-" and the first 128 bits of SHA-256 over both canonical paths
// (absolute, symbolic links resolved), so reopening the same session, under whatever
// spelling of its paths, gets the same id (seed 002), and another workspace sharing the
// state directory does not.
func DurableSessionID(stateDir, workspace string) (string, error) {
	state, err := canonical(stateDir)
	if err != nil {
		return "", fmt.Errorf("session id: state directory: %w", err)
	}
	ws := ""
	if workspace != "" {
		if ws, err = canonical(workspace); err != nil {
			return "", fmt.Errorf("session id: workspace: %w", err)
		}
	}
	sum := sha256.Sum256([]byte("octet-session-v1\x00" + state + "\x00" + ws))
	return "session-" + hex.EncodeToString(sum[:16]), nil
}

func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// bundleDigest is the archive digest in dir's install record: an installed bundle has one;
// any other directory has none, and a record that does not read is no digest here rather
// than a fault (the bundle commands report it).
func bundleDigest(dir string) string {
	if r, err := bundle.ReadRecord(dir); err == nil {
		return r.SHA256
	}
	return ""
}
