package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/octet-kit/octet/host/bundle/recovery"
)

// Listed is one managed bundle of the root: its record, or the problem with it.
type Listed struct {
	Name    string  `json:"name"`
	Dir     string  `json:"dir"`
	Record  *Record `json:"record,omitempty"`
	Problem string  `json:"problem,omitempty"` // install.json is present but invalid
}

// List returns the root's managed bundles, sorted by name: every directory holding an
// install.json. Unpackaged extensions (no install.json) are not bundles and are skipped.
// A missing root lists nothing.
func (m *Manager) List() ([]Listed, error) {
	recovery.Recover(m.Root) // a crashed update's moved-aside bundle is listed, not missed
	ents, err := os.ReadDir(m.Root)
	if errors.Is(err, os.ErrNotExist) {
		return []Listed{}, nil
	}
	if err != nil {
		return nil, refuse(m.Root, RuleRootDirectory, "cannot read the extension root: %v", err)
	}
	out := []Listed{}
	for _, ent := range ents {
		name := ent.Name()
		if strings.HasPrefix(name, ".") || !ent.IsDir() { // DirEntry type comes from Lstat: symlinks are skipped
			continue
		}
		dir := filepath.Join(m.Root, name)
		if _, err := os.Lstat(filepath.Join(dir, RecordFile)); errors.Is(err, os.ErrNotExist) {
			continue
		}
		l := Listed{Name: name, Dir: dir}
		if rec, err := m.managed(name); err != nil {
			l.Problem = err.Error()
		} else {
			l.Record = rec
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
