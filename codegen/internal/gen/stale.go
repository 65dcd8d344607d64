package gen

import (
	"bytes"
	"io/fs"
)

// Stale lists the generated paths whose committed copy in root is missing or differs.
func Stale(files Output, root fs.FS) []string {
	var stale []string
	for _, p := range files.Paths() {
		old, err := fs.ReadFile(root, p)
		if err != nil {
			stale = append(stale, p+" (missing)")
			continue
		}
		if !bytes.Equal(old, files[p]) {
			stale = append(stale, p)
		}
	}
	return stale
}
