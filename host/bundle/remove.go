package bundle

import (
	"os"
	"path/filepath"
	"strings"
)

// Remove deletes the managed bundle <root>/<name>/ and nothing else: the directory must
// hold a valid install.json for name. It is first renamed out of discovery's sight, then
// deleted without following symbolic links. Config and data outside it are untouched.
func (m *Manager) Remove(name string) (*Record, error) {
	if name == "" || name != filepath.Base(name) || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return nil, refuse(name, RuleName, "%q is not an extension name; pass the name 'octet-host bundle list' shows", name)
	}
	unlock, err := m.lockRoot()
	if err != nil {
		return nil, err
	}
	defer unlock()
	m.cleanLeftovers()
	rec, err := m.managed(name)
	if err != nil {
		return nil, err
	}
	trash, err := os.MkdirTemp(m.Root, removingPrefix)
	if err != nil {
		return nil, refuse(name, RulePublish, "cannot create a removal directory: %v; nothing was removed", err)
	}
	m.step("trash-created")
	if err := m.move(filepath.Join(m.Root, name), filepath.Join(trash, name)); err != nil {
		os.Remove(trash)
		return nil, refuse(name, RulePublish, "cannot remove: %v; nothing was removed", err)
	}
	syncRoot(m.Root)
	m.step("unpublished")
	if err := os.RemoveAll(trash); err != nil { // RemoveAll unlinks symlinks, never follows them
		return rec, refuse(name, RulePublish, "removed from the root, but files remain in %s (%v); the next bundle operation deletes them", trash, err)
	}
	return rec, nil
}
