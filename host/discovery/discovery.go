// Package discovery finds extension manifests under the global, project and explicit roots.
//
// Discovery reads files only; it never executes anything. Every root uses the direct-child
// layout <root>/<name>/extension.toml. Roots are visited in precedence order (global, then
// the trusted project root, then explicit directories in command-line order) and a later
// definition wins by directory name. Every problem becomes a diagnostic and never stops the
// other extensions from being found.
package discovery

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/octet-kit/octet/host/bundle/recovery"
	"github.com/octet-kit/octet/host/manifest"
)

// Source says which kind of root an extension came from; it is sent in initialize.
type Source string

// The three sources, in precedence order.
const (
	Global   Source = "global"
	Project  Source = "project"
	Explicit Source = "explicit"
)

// Root is one directory searched for extensions.
type Root struct {
	Dir    string
	Source Source
	// Single marks an explicit directory that is itself an extension (it holds extension.toml)
	// rather than a directory of extensions.
	Single bool
}

// Entry is one discovered extension: valid (Manifest set) or invalid (Diagnostics set).
type Entry struct {
	Name         string // the directory name, which must equal the manifest name
	Dir          string // absolute extension directory
	ManifestPath string // absolute path of extension.toml
	Source       Source
	Manifest     *manifest.Manifest
	Diagnostics  []manifest.Diagnostic
}

// Valid reports whether the entry's manifest passed validation.
func (e *Entry) Valid() bool { return e.Manifest != nil }

// Result is what discovery found: the winning entry per directory name, sorted by name,
// and every diagnostic (including those of entries shadowed by a later root).
type Result struct {
	Entries     []*Entry
	Diagnostics []manifest.Diagnostic
}

// Lookup returns the winning entry named name.
func (r *Result) Lookup(name string) *Entry {
	for _, e := range r.Entries {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// Roots builds the search path: globalDir, then <workspace>/.octet/extensions when the
// workspace is trusted, then each explicit directory in order. An explicit directory that
// itself holds extension.toml is a single extension; otherwise it is a root of extensions.
func Roots(globalDir, workspace string, workspaceTrusted bool, explicit []string) []Root {
	var roots []Root
	if globalDir != "" {
		roots = append(roots, Root{Dir: globalDir, Source: Global})
	}
	if workspace != "" && workspaceTrusted {
		roots = append(roots, Root{Dir: filepath.Join(workspace, ".octet", "extensions"), Source: Project})
	}
	for _, d := range explicit {
		_, err := os.Lstat(filepath.Join(d, manifest.FileName))
		roots = append(roots, Root{Dir: d, Source: Explicit, Single: err == nil})
	}
	return roots
}

// Discover searches roots in order and validates every manifest found.
func Discover(roots []Root, opts manifest.Options) *Result {
	res := &Result{}
	winners := map[string]*Entry{}
	for _, root := range roots {
		dir, err := filepath.Abs(root.Dir)
		if err != nil {
			res.Diagnostics = append(res.Diagnostics, manifest.Diagnostic{File: root.Dir, Rule: manifest.RuleRead, Message: err.Error()})
			continue
		}
		var children []string
		if root.Single {
			children = []string{dir}
		} else {
			// A bundle update a crash interrupted is finished or rolled back first, so the
			// extension is never missing from a root (package recovery).
			recovery.Recover(dir)
			children, err = listChildren(dir)
			if err != nil {
				// A missing global or project root simply means no extensions there; a missing
				// explicit directory is a mistake on the command line and is reported.
				if root.Source == Explicit || !errors.Is(err, os.ErrNotExist) {
					res.Diagnostics = append(res.Diagnostics, manifest.Diagnostic{File: dir, Rule: manifest.RuleRead,
						Message: fmt.Sprintf("%s extension root cannot be read: %v", root.Source, err)})
				}
				continue
			}
		}
		for _, child := range children {
			e := load(child, root.Source, opts)
			if e == nil {
				continue
			}
			if prev, ok := winners[e.Name]; ok {
				res.Diagnostics = append(res.Diagnostics, manifest.Diagnostic{File: prev.ManifestPath, Rule: manifest.RuleShadowed,
					Message: fmt.Sprintf("%s extension %q is shadowed by the %s one at %s", prev.Source, e.Name, e.Source, e.ManifestPath)})
			}
			winners[e.Name] = e
		}
	}
	for _, e := range winners {
		res.Entries = append(res.Entries, e)
		res.Diagnostics = append(res.Diagnostics, e.Diagnostics...)
	}
	sort.Slice(res.Entries, func(i, j int) bool { return res.Entries[i].Name < res.Entries[j].Name })
	sort.SliceStable(res.Diagnostics, func(i, j int) bool { return res.Diagnostics[i].File < res.Diagnostics[j].File })
	return res
}

// listChildren returns the direct child directories of root (symlinked directories are
// followed only as directories; the manifest inside must still be a regular file).
// Dot-directories are skipped: no manifest name starts with a dot, and the bundle installer
// keeps its private staging, moved-aside and removal directories (.staging-*, .previous-*,
// .removing-*) there, which must never be discovered, even as invalid entries.
func listChildren(root string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ent := range ents {
		if strings.HasPrefix(ent.Name(), ".") {
			continue
		}
		p := filepath.Join(root, ent.Name())
		fi, err := os.Stat(p)
		if err != nil || !fi.IsDir() {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// load reads one extension directory. A directory without extension.toml is not an
// extension and yields nil; everything else yields an entry, valid or with diagnostics.
func load(dir string, src Source, opts manifest.Options) *Entry {
	path := filepath.Join(dir, manifest.FileName)
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	e := &Entry{Name: filepath.Base(dir), Dir: dir, ManifestPath: path, Source: src}
	m, diags := manifest.Load(path, opts)
	if len(diags) > 0 {
		e.Diagnostics = diags
		return e
	}
	if m.Name != e.Name {
		e.Diagnostics = []manifest.Diagnostic{{File: path, Field: "name", Rule: manifest.RuleDirectoryName,
			Message: fmt.Sprintf("manifest name %q differs from its directory name %q; rename one so they match", m.Name, e.Name)}}
		return e
	}
	e.Manifest = m
	return e
}
