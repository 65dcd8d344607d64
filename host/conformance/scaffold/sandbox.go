package scaffold

import (
	"path/filepath"
	"strconv"
	"strings"
)

// sandboxPaths declares what a scaffold's launcher reads and writes outside its own
// directory, so it runs in the sandbox its manifest declares: the kit's SDK (and .venv)
// inside a checkout, and for Go the module and build caches and its bin directory, since
// its launcher rebuilds the binary when a source changed.
func sandboxPaths(lang, kit string) (read, write string) {
	var r, w []string
	switch lang {
	case "python":
		if kit != "" {
			r = append(r, filepath.Join(kit, "sdk-python", "src"), filepath.Join(kit, ".venv"))
		}
	case "typescript":
		if kit != "" {
			r = append(r, filepath.Join(kit, "sdk-typescript"))
		}
	case "go":
		if kit != "" {
			r = append(r, filepath.Join(kit, "sdk-go"), filepath.Join(kit, "go.mod"), filepath.Join(kit, "go.sum"))
		}
		r = append(r, "~/go/pkg/mod")
		w = append(w, "bin", "~/.cache/go-build")
	}
	return tomlItems(r), tomlItems(w)
}

func tomlItems(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
