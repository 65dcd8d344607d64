//go:build mage

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/magefile/mage/mg"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// distDir is where Dist writes the release artifacts (git-ignored).
const distDir = "dist"

// sdkGoModule is the Go SDK's module path (sdk-go/go.mod).
const sdkGoModule = "github.com/octet-kit/octet/sdk-go"

// hostTargets are the platforms octet-host is released for.
var hostTargets = [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}}

// Dist writes every release artifact into dist/: the Python wheel and sdist, the npm
// tarball (built by the package's own prepack), the Go SDK as a module zip in a
// file-system GOPROXY layout (dist/goproxy), octet-host for linux and darwin on amd64 and
// arm64, for the same platforms the octet-mcp bundle and octet-mcp-gateway (distMCP), and
// SHA256SUMS over all of it. Each carries the one version in VERSION.
func Dist() error {
	mg.Deps(PythonEnv, TypeScriptEnv)
	v, err := kitVersion()
	if err != nil {
		return err
	}
	out := filepath.Join(root(), distDir)
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	// Python: build the sdist, then the wheel from it, in an isolated environment, so the
	// wheel holds exactly what the sdist ships and nothing is left in sdk-python/build.
	if _, err := output(".", venvBin("python"), "-m", "build", "--outdir", out, "sdk-python"); err != nil {
		return err
	}
	// npm: `npm pack` runs the package's prepack (tsc over src only) first. The previous
	// build's dist/src goes first, so the tarball holds only what prepack builds.
	if err := os.RemoveAll(filepath.Join(root(), "sdk-typescript", "dist", "src")); err != nil {
		return err
	}
	if _, err := output("sdk-typescript", "npm", "pack", "--silent", "--pack-destination", out); err != nil {
		return err
	}
	if err := goModuleZip(out, v); err != nil {
		return err
	}
	for _, t := range hostTargets {
		bin := filepath.Join(out, fmt.Sprintf("octet-host-%s-%s-%s", v, t[0], t[1]))
		env := []string{"GOOS=" + t[0], "GOARCH=" + t[1], "CGO_ENABLED=0"}
		if err := run(".", env, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./host/cmd/octet-host"); err != nil {
			return err
		}
	}
	if err := distMCP(out, v); err != nil {
		return err
	}
	return writeSums(out)
}

// kitVersion is the one version, from VERSION.
func kitVersion() (string, error) {
	b, err := os.ReadFile(filepath.Join(root(), "VERSION"))
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(b))
	if !versionPattern.MatchString(v) {
		return "", fmt.Errorf("VERSION %q is not MAJOR.MINOR.PATCH", v)
	}
	return v, nil
}

// goModuleZip writes the Go SDK module as a GOPROXY would serve it:
// goproxy/<module>/@v/{list, vV.info, vV.mod, vV.zip}. GOPROXY=file://.../dist/goproxy
// then resolves `require github.com/octet-kit/octet/sdk-go vV` without the checkout.
func goModuleZip(out, v string) error {
	mv := module.Version{Path: sdkGoModule, Version: "v" + v}
	dir := filepath.Join(out, "goproxy", filepath.FromSlash(sdkGoModule), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	zf, err := os.Create(filepath.Join(dir, mv.Version+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zf, mv, filepath.Join(root(), "sdk-go")); err != nil {
		zf.Close()
		return fmt.Errorf("module zip of sdk-go: %w", err)
	}
	if err := zf.Close(); err != nil {
		return err
	}
	mod, err := os.ReadFile(filepath.Join(root(), "sdk-go", "go.mod"))
	if err != nil {
		return err
	}
	info, _ := json.Marshal(map[string]string{"Version": mv.Version, "Time": "2026-01-01T00:00:00Z"})
	for name, body := range map[string][]byte{mv.Version + ".mod": mod, mv.Version + ".info": info, "list": []byte(mv.Version + "\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeSums writes SHA256SUMS (the format `sha256sum -c` reads) over every file in out.
func writeSums(out string) error {
	var lines []string
	err := filepath.WalkDir(out, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if rel == "SHA256SUMS" {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return err
		}
		lines = append(lines, hex.EncodeToString(h.Sum(nil))+"  "+filepath.ToSlash(rel)+"\n")
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(lines)
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(strings.Join(lines, "")), 0o644)
}
