//go:build !linux

package bundle

// exchange is unavailable: updates use the move-aside path, whose aside directory is the
// recovery journal (package recovery).
func exchange(a, b string) (bool, error) { return false, nil }

// renameNew is unavailable: installs use a plain rename after the existence check.
func renameNew(a, b string) (bool, error) { return false, nil }
