package bundle

import (
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/host/manifest"
)

// checkWidening refuses an update whose manifest asks for more than the installed one, until
// the operator consents again (AcceptPermissions). The installed manifest is read as it is;
// one that no longer validates counts as asking for nothing, so every permission is new.
func (m *Manager) checkWidening(root, target string, next *manifest.Manifest) error {
	if m.AcceptPermissions {
		return nil
	}
	var prev manifest.Capabilities
	if cur, diags := manifest.Load(filepath.Join(target, manifest.FileName), manifest.Options{OctetVersion: m.octetVersion()}); len(diags) == 0 {
		prev = cur.Capabilities
	} else {
		prev = manifest.Capabilities{Filesystem: "none"}
	}
	if gained := manifest.Widened(prev, next.Capabilities); len(gained) > 0 {
		return refuse(root, RulePermissions, "the update asks for more than the installed version: %s; review it and run 'octet-host bundle update --accept-permissions' to consent", strings.Join(gained, "; "))
	}
	return nil
}
