package reference

import (
	"context"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
)

// Entry discovers the one extension whose directory is dir (it holds extension.toml; its
// name must equal the manifest's), validated strictly as discovery does. The error lists
// every diagnostic.
func Entry(dir string) (*discovery.Entry, error) {
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	if len(res.Entries) == 1 && res.Entries[0].Valid() {
		return res.Entries[0], nil
	}
	var diags []string
	for _, d := range res.Diagnostics {
		diags = append(diags, d.String())
	}
	if len(diags) == 0 {
		diags = append(diags, "no extension found")
	}
	return nil, fmt.Errorf("%s is not a valid extension: %s", dir, strings.Join(diags, "; "))
}

// StartDirs starts the extensions in dirs at once, each required: if one fails, every
// one already started is shut down and the error (a *host.StartupError) names it. The
// extensions are returned in the order of dirs.
func (h *Host) StartDirs(ctx context.Context, dirs ...string) ([]*host.Extension, error) {
	entries := make([]*discovery.Entry, len(dirs))
	names := make([]string, len(dirs))
	for i, d := range dirs {
		e, err := Entry(d)
		if err != nil {
			return nil, err
		}
		entries[i], names[i] = e, e.Name
	}
	if _, err := h.Start(ctx, entries, names); err != nil {
		return nil, err
	}
	exts := make([]*host.Extension, len(names))
	for i, n := range names {
		exts[i] = h.Extension(n)
	}
	return exts, nil
}

// StartDir starts the one extension in dir as a required extension and returns it.
func (h *Host) StartDir(ctx context.Context, dir string) (*host.Extension, error) {
	exts, err := h.StartDirs(ctx, dir)
	if err != nil {
		return nil, err
	}
	return exts[0], nil
}
