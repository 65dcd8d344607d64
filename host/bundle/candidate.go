package bundle

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/host/manifest"
)

// validate checks the unpacked candidate's manifest with the host's validator, then the
// rules bundles add: directory name == manifest name, API 0.2 or 0.4, an exact
// requires_octet, and a relative entrypoint that is one of the bundle's regular files.
func validate(c *candidate, octetVersion string) (*manifest.Manifest, error) {
	entry := c.root + "/" + manifest.FileName
	if !c.files[manifest.FileName] {
		return nil, refuse(entry, RuleManifest, "missing; the root directory must hold the extension's manifest")
	}
	m, diags := manifest.Load(filepath.Join(c.dir, manifest.FileName), manifest.Options{OctetVersion: octetVersion})
	if len(diags) > 0 {
		for i := range diags {
			diags[i].File = entry // the staging path means nothing to the user
		}
		return nil, &Error{Entry: entry, Rule: RuleManifest, Message: "manifest is invalid", Diagnostics: diags}
	}
	switch {
	case m.Name != c.root:
		return nil, refuse(c.root+"/", RuleDirectoryName, "root directory %q differs from the manifest name %q; name the directory after the extension", c.root, m.Name)
	case m.APIVersion == "0.1":
		return nil, refuse(entry, RuleAPIVersion, "API 0.1 is supported only for unpackaged local copies; bundles declare api_version \"0.4\" (or \"0.2\")")
	case m.RequiresOctet == "":
		return nil, refuse(entry, RuleRequiresOctet, "bundles must pin the octet version they run on: add requires_octet = \"=%s\"", octetVersion)
	}
	// The validator already refused a relative command leaving the directory; a bundle's
	// relative command must also be one of the files it ships.
	if cmd := m.Entrypoint.Command; !filepath.IsAbs(cmd) && strings.Contains(cmd, "/") && !c.files[path.Clean(cmd)] {
		return nil, refuse(entry, RuleEntrypoint, "entrypoint.command %q is not a regular file of the bundle", cmd)
	}
	return m, nil
}
