package process

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Resolve finds the executable for command: a bare name beside the manifest first, then on
// path (the host's PATH); a relative name containing "/" inside dir; an absolute path as is.
func Resolve(dir, command, path string) (string, error) {
	var candidate string
	switch {
	case filepath.IsAbs(command):
		candidate = command
	case strings.Contains(command, "/"):
		candidate = filepath.Join(dir, command)
		if err := staysInside(dir, candidate); err != nil {
			return "", &StartError{Kind: KindNotFound, Message: fmt.Sprintf("command %q: %v", command, err)}
		}
	default:
		beside := filepath.Join(dir, command)
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			candidate = beside
			break
		}
		for _, d := range filepath.SplitList(path) {
			if d == "" || !filepath.IsAbs(d) {
				continue // a relative PATH entry would depend on the workspace; never used
			}
			p := filepath.Join(d, command)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				if fi.Mode()&0o111 != 0 {
					return p, nil
				}
				if candidate == "" {
					candidate = p
				}
			}
		}
		if candidate == "" {
			return "", &StartError{Kind: KindNotFound, Message: fmt.Sprintf("command %q not found beside the manifest in %s or on PATH", command, dir)}
		}
	}
	fi, err := os.Stat(candidate)
	if errors.Is(err, fs.ErrNotExist) {
		return "", &StartError{Kind: KindNotFound, Message: fmt.Sprintf("command %q not found (%s does not exist)", command, candidate)}
	}
	if err != nil {
		return "", &StartError{Kind: KindNotFound, Message: fmt.Sprintf("command %q: %v", command, err)}
	}
	if !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", &StartError{Kind: KindNotExecutable, Message: fmt.Sprintf("command %q (%s) is not an executable file; chmod +x it", command, candidate)}
	}
	if _, err := exec.LookPath(candidate); err != nil {
		return "", &StartError{Kind: KindNotExecutable, Message: fmt.Sprintf("command %q (%s) is not executable: %v", command, candidate, err)}
	}
	return candidate, nil
}

// staysInside checks, after resolving symbolic links, that path is inside dir: the manifest
// check is lexical, and a link inside the directory could otherwise point anywhere.
func staysInside(dir, path string) error {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	realPath, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil // a missing file is reported by the caller as not found
	}
	rel, err := filepath.Rel(realDir, realPath)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("resolves to %s, outside the extension directory %s", realPath, realDir)
	}
	return nil
}
