package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/octet-kit/octet/host"
)

// Manager installs, updates, removes and lists the bundles of one extension root.
type Manager struct {
	// Root is the extension root bundles are published in, normally the host's global root.
	Root string
	// OctetVersion is the running host's octet version; bundles must pin exactly it.
	// Empty means host.OctetVersion.
	OctetVersion string
	// Now stamps installed_at; nil means time.Now.
	Now func() time.Time
	// AcceptPermissions is the operator's renewed consent: without it an update whose
	// manifest asks for more than the installed one ([capabilities]) is refused.
	AcceptPermissions bool

	rename func(oldpath, newpath string) error // os.Rename; tests inject publication failures
	limits *limits                             // nil means defaultLimits; tests shrink them
	// stepHook sees every crash point of publication (tests kill the process there);
	// noExchange forces the move-aside path where renameat2 is available.
	stepHook   func(step string)
	noExchange bool
}

// New returns a Manager for root with the host's defaults.
func New(root string) *Manager { return &Manager{Root: root} }

func (m *Manager) octetVersion() string {
	if m.OctetVersion != "" {
		return m.OctetVersion
	}
	return host.OctetVersion
}

func (m *Manager) move(oldpath, newpath string) error {
	if m.rename != nil {
		return m.rename(oldpath, newpath)
	}
	return os.Rename(oldpath, newpath)
}

// Install validates the archive and publishes it as <root>/<name>/ with a fresh
// install.json. It refuses when <root>/<name> exists in any form. Nothing is enabled,
// trusted, started or executed.
func (m *Manager) Install(archive string) (*Record, error) { return m.publish(archive, false) }

// Update replaces the managed bundle of the same name with the archive's. The complete
// candidate is validated first; the current bundle is moved aside, the candidate renamed
// in, and on failure the current bundle is moved back, so it stays usable. The old files
// are deleted only after the candidate is published.
func (m *Manager) Update(archive string) (*Record, error) { return m.publish(archive, true) }

func (m *Manager) publish(archive string, update bool) (*Record, error) {
	src, err := canonical(archive)
	if err != nil {
		return nil, refuse(archive, RuleArchive, "cannot resolve the archive path: %v", err)
	}
	// Refused before the lock is taken: opening a FIFO or device would block, or read
	// forever, while every other operation on the root waits.
	if err := regularFile(src); err != nil {
		return nil, err
	}
	unlock, err := m.lockRoot()
	if err != nil {
		return nil, err
	}
	defer unlock()
	m.cleanLeftovers()
	staging, err := os.MkdirTemp(m.Root, stagingPrefix) // mode 0700: private until published
	if err != nil {
		return nil, refuse(m.Root, RuleRootDirectory, "cannot create a staging directory: %v", err)
	}
	defer os.RemoveAll(staging)
	m.step("staging-created")

	lim := defaultLimits
	if m.limits != nil {
		lim = *m.limits
	}
	c, err := extract(src, staging, lim)
	if err != nil {
		return nil, err
	}
	man, err := validate(c, m.octetVersion())
	if err != nil {
		return nil, err
	}
	target := filepath.Join(m.Root, c.root)
	_, statErr := os.Lstat(target)
	if statErr != nil && !errors.Is(statErr, os.ErrNotExist) {
		return nil, refuse(c.root, RuleRootDirectory, "cannot stat %s: %v", target, statErr)
	}
	exists := statErr == nil
	switch {
	case !update && exists:
		return nil, refuse(c.root, RuleExists, "%s already exists; use 'octet-host bundle update' to replace a managed bundle", target)
	case update && !exists:
		return nil, refuse(c.root, RuleNotInstalled, "no bundle %q is installed in %s; use 'octet-host bundle install'", c.root, m.Root)
	case update:
		if _, err := m.managed(c.root); err != nil {
			return nil, err
		}
		if err := m.checkWidening(c.root, target, man); err != nil {
			return nil, err
		}
	}
	rec := &Record{
		Schema: RecordSchema, ID: man.Name, Version: man.Version, APIVersion: man.APIVersion,
		RequiresOctet: man.RequiresOctet, Source: src, SHA256: c.sha256, OctetVersion: m.octetVersion(),
		InstalledAt: m.now().UTC().Truncate(time.Second).Format(time.RFC3339),
	}
	if err := writeRecord(c.dir, rec); err != nil {
		return nil, refuse(c.root, RulePublish, "cannot write %s in staging: %v", RecordFile, err)
	}
	m.step("staged")
	if err := syncTree(c.dir); err != nil {
		return nil, refuse(c.root, RulePublish, "cannot flush the candidate to disk: %v; nothing was published", err)
	}
	m.step("synced")
	if !update {
		if err := m.publishNew(c.dir, target); err != nil {
			return nil, refuse(c.root, RulePublish, "cannot publish %s: %v; nothing was installed", target, err)
		}
		m.step("published")
		syncRoot(m.Root)
		m.step("root-synced")
		return rec, nil
	}
	if err := m.swap(c, target); err != nil {
		return nil, err
	}
	return rec, nil
}

// publishNew renames the candidate to the free name target.
func (m *Manager) publishNew(candidate, target string) error {
	if m.rename == nil {
		if ok, err := renameNew(candidate, target); ok {
			return err
		}
	}
	return m.move(candidate, target)
}

// swap replaces the bundle at target by the candidate. Where the kernel can exchange two
// directories atomically the name never stops naming a complete bundle: the old one lands
// in staging, which is deleted with it. Elsewhere it falls back to moving aside (moveAside).
func (m *Manager) swap(c *candidate, target string) error {
	if m.rename == nil && !m.noExchange {
		ok, err := exchange(c.dir, target)
		if ok {
			if err != nil {
				return refuse(c.root, RulePublish, "cannot publish the update: %v; the current bundle is unchanged", err)
			}
			m.step("published")
			syncRoot(m.Root)
			m.step("root-synced")
			return nil
		}
	}
	return m.moveAside(c, target)
}

// moveAside moves the current bundle at target aside, renames the candidate in, and moves
// the current one back if that fails. The aside directory is the recovery journal: a crash
// between the two renames leaves it, and recovery (run by every bundle operation and by
// discovery) moves it back.
func (m *Manager) moveAside(c *candidate, target string) error {
	aside, err := os.MkdirTemp(m.Root, previousPrefix)
	if err != nil {
		return refuse(c.root, RulePublish, "cannot create a directory to move the current bundle aside: %v; nothing changed", err)
	}
	syncRoot(m.Root) // the journal exists on disk before the bundle moves into it
	m.step("journaled")
	old := filepath.Join(aside, c.root)
	if err := m.move(target, old); err != nil {
		os.Remove(aside)
		return refuse(c.root, RulePublish, "cannot move the current bundle aside: %v; nothing changed", err)
	}
	m.step("moved-aside")
	if err := m.move(c.dir, target); err != nil {
		if rerr := m.move(old, target); rerr != nil {
			return refuse(c.root, RulePublish, "cannot publish the update (%v) nor move the current bundle back (%v); it is kept in %s and the next bundle operation (or discovery) restores it", err, rerr, old)
		}
		os.Remove(aside)
		return refuse(c.root, RulePublish, "cannot publish the update: %v; the current bundle is unchanged", err)
	}
	m.step("published")
	syncRoot(m.Root) // the new bundle is durably published before the journal goes
	m.step("root-synced")
	os.RemoveAll(aside) // if this fails, the next operation deletes it
	m.step("aside-removed")
	return nil
}

// managed returns the install.json of <root>/<name>, refusing anything that is not a
// directory (symlinks included) holding a valid record for that name.
func (m *Manager) managed(name string) (*Record, error) {
	dir := filepath.Join(m.Root, name)
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, refuse(name, RuleNotInstalled, "no bundle %q is installed in %s", name, m.Root)
	case err != nil:
		return nil, refuse(name, RuleRootDirectory, "cannot stat %s: %v", dir, err)
	case fi.Mode()&os.ModeSymlink != 0:
		return nil, refuse(name, RuleUnmanaged, "%s is a symbolic link, not a managed bundle; remove it by hand if you mean to", dir)
	case !fi.IsDir():
		return nil, refuse(name, RuleUnmanaged, "%s is not a directory, not a managed bundle", dir)
	}
	rec, err := ReadRecord(dir)
	if err != nil {
		return nil, refuse(name, RuleUnmanaged, "%s is not a managed bundle (%v); only bundles installed by octet-host bundle install are updated or removed", dir, err)
	}
	if rec.ID != name {
		return nil, refuse(name, RuleUnmanaged, "%s records id %q, not %q; it is not a managed bundle of this name", filepath.Join(dir, RecordFile), rec.ID, name)
	}
	return rec, nil
}

func (m *Manager) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// canonical is the archive's absolute path with symbolic links resolved.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
