//go:build mage

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/magefile/mage/mg"
)

// The inspector page of `octet-host dev` is TypeScript in inspector/src, bundled by
// esbuild (pinned in inspector/package-lock.json) into host/devui/assets, which the binary
// embeds. The bundle is committed as a generated artifact, so `go build` and `go install`
// of octet-host need no Node; InspectorDrift (run by Drift) rebuilds it and fails when the
// committed one differs.

var inspectorOutputs = []string{"app.js", "app.css"}

// InspectorEnv installs the inspector's dev dependencies (esbuild, typescript) from its
// lock file.
func InspectorEnv() error {
	return run("inspector", nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
}

// InspectorBundle type-checks the inspector page (tsc --strict --noEmit) and bundles it
// into host/devui/assets; commit the result.
func InspectorBundle() error {
	mg.Deps(InspectorEnv)
	if err := run("inspector", nil, "npm", "run", "--silent", "lint"); err != nil {
		return err
	}
	return run("inspector", nil, "node", "build.mjs")
}

// InspectorDrift type-checks the page and bundles it into a temporary directory; it fails
// when host/devui/assets differs (someone edited the bundle, or the sources without
// rebuilding it).
func InspectorDrift() error {
	if !exists("inspector/package.json") {
		return nil
	}
	mg.Deps(InspectorEnv)
	if err := run("inspector", nil, "npm", "run", "--silent", "lint"); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "inspector-drift-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := run("inspector", nil, "node", "build.mjs", tmp); err != nil {
		return err
	}
	for _, name := range inspectorOutputs {
		want, err := os.ReadFile(filepath.Join(tmp, name))
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(root(), "host", "devui", "assets", name))
		if err != nil {
			return fmt.Errorf("host/devui/assets/%s: %w (run `go run mage.go inspectorBundle`)", name, err)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("host/devui/assets/%s is not the bundle of inspector/src: run `go run mage.go inspectorBundle` and commit it (never edit it by hand)", name)
		}
	}
	return nil
}

// InspectorShots regenerates the screenshots in docs/images/inspector-*.png that
// docs/inspector.md shows, by running the browser test against the Go fixture with
// headless Chromium (Debian's chromium package).
func InspectorShots() error {
	mg.SerialDeps(PythonEnv, BuildTypeScript)
	return run(".", []string{"OCTET_INSPECTOR_SHOTS=" + filepath.Join(root(), "docs", "images")},
		"go", "test", "-count=1", "-run", "TestInspectorInBrowser/go", "./host/cmd/octet-host/")
}
