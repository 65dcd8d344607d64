package bundle

// SetRename replaces the rename publication uses, to simulate a failing filesystem.
func SetRename(m *Manager, rename func(oldpath, newpath string) error) { m.rename = rename }

// SetLimits shrinks the size and count bounds so refusals are tested with small archives.
func SetLimits(m *Manager, archive, entry, manifest, expanded int64, entries int) {
	m.limits = &limits{archive: archive, entry: entry, manifest: manifest, expanded: expanded, entries: entries}
}

// EntryPath exposes the path check for names a tar writer cannot even encode (NUL).
func EntryPath(name string, isDir bool) ([]string, error) {
	elems, err := entryPath(name, isDir)
	if err != nil {
		return nil, err
	}
	return elems, nil
}

// SetStepHook calls hook at every crash point of publication and removal.
func SetStepHook(m *Manager, hook func(step string)) { m.stepHook = hook }

// SetNoExchange forces the move-aside update path even where renameat2 can exchange.
func SetNoExchange(m *Manager) { m.noExchange = true }
