//go:build mage

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// versionStamps are the places that carry the kit's version besides VERSION: each is a
// file and a pattern whose first group is the version. host/version_test.go checks them.
var versionStamps = []struct{ path, pattern string }{
	{"host/limits.go", `OctetVersion = "([^"]+)"`},
	{"sdk-go/version.go", `const Version = "([^"]+)"`},
	{"sdk-python/pyproject.toml", `(?m)^version = "([^"]+)"`},
	{"sdk-python/src/octet_extension/__init__.py", `(?m)^__version__ = "([^"]+)"`},
	{"sdk-typescript/package.json", `(?m)^  "version": "([^"]+)"`},
	{"sdk-typescript/package-lock.json", `(?m)^  "version": "([^"]+)"`},
	{"sdk-typescript/package-lock.json", `(?m)^      "name": "octet-extension-sdk",\n      "version": "([^"]+)"`},
}

var versionPattern = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// SetVersion writes the kit's one version V into VERSION and stamps it into the host, the
// Go SDK, the Python package and the npm package (go run mage.go setVersion 0.9.0).
func SetVersion(v string) error {
	if !versionPattern.MatchString(v) {
		return fmt.Errorf("version %q is not MAJOR.MINOR.PATCH", v)
	}
	for _, s := range versionStamps {
		path := filepath.Join(root(), s.path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		re := regexp.MustCompile(s.pattern)
		loc := re.FindSubmatchIndex(b)
		if loc == nil {
			return fmt.Errorf("%s: no version matching %s", s.path, s.pattern)
		}
		out := append(append(append([]byte{}, b[:loc[2]]...), v...), b[loc[3]:]...)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(root(), "VERSION"), []byte(v+"\n"), 0o644)
}
