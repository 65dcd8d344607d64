//go:build mage

package main

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/magefile/mage/mg"
)

// freshLanguages are the scaffold languages proven from dist/. The build targets import no
// host package, so that `generate` still runs when the host does not compile.
var freshLanguages = []string{"go", "python", "typescript"}

// FreshDir installs the release the way each ecosystem expects, in an empty temporary
// directory that sees nothing of this checkout but a copy of dist/: the wheel into a new
// venv, the npm tarball into a new project, the Go SDK module unpacked into the
// scaffold from dist/'s module zip (no GOPROXY, GONOSUMDB or GOFLAGS), and the octet-host
// binary on PATH. It first checks that `new` without --sdk refuses there, then scaffolds
// one extension per language with that binary (new --sdk), runs the scaffold README's
// commands literally (install, build, strict type check, unit test, a call, certify),
// certifies it, and installs it packed as a bundle.
// It fails when an artifact is missing, SHA256SUMS does not verify, or a scaffold names
// a path in the checkout. OCTET_FRESH_KEEP=1 keeps the directory for a look.
func FreshDir() error {
	mg.Deps(Dist)
	v, err := kitVersion()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "octet-fresh-")
	if err != nil {
		return err
	}
	if os.Getenv("OCTET_FRESH_KEEP") == "" {
		defer func() {
			// The private module cache is read-only by Go's design; go clean removes it.
			clean := exec.Command("go", "clean", "-modcache")
			clean.Env = append(os.Environ(), "GOMODCACHE="+filepath.Join(tmp, "gomodcache"))
			_ = clean.Run()
			os.RemoveAll(tmp)
		}()
	} else {
		fmt.Println("fresh-directory: kept", tmp)
	}
	dist := filepath.Join(tmp, "dist")
	if err := copyTree(filepath.Join(root(), distDir), dist); err != nil {
		return err
	}
	if err := verifySums(dist); err != nil {
		return err
	}
	for _, a := range []string{
		"octet_extension_sdk-" + v + "-py3-none-any.whl",
		"octet_extension_sdk-" + v + ".tar.gz",
		"octet-extension-sdk-" + v + ".tgz",
		"goproxy/" + sdkGoModule + "/@v/v" + v + ".zip",
		"goproxy/" + sdkGoModule + "/@v/v" + v + ".mod",
		"goproxy/" + sdkGoModule + "/@v/v" + v + ".info",
	} {
		if _, err := os.Stat(filepath.Join(dist, a)); err != nil {
			return fmt.Errorf("fresh-directory: dist/%s is missing", a)
		}
	}
	bin := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	for _, t := range hostTargets {
		if _, err := os.Stat(filepath.Join(dist, fmt.Sprintf("octet-host-%s-%s-%s", v, t[0], t[1]))); err != nil {
			return fmt.Errorf("fresh-directory: the octet-host binary for %s/%s is missing", t[0], t[1])
		}
	}
	host := filepath.Join(dist, fmt.Sprintf("octet-host-%s-%s-%s", v, runtime.GOOS, runtime.GOARCH))
	if err := copyFile(host, filepath.Join(bin, "octet-host"), 0o755); err != nil {
		return err
	}
	env := freshEnv(tmp, bin)
	ver, err := freshRun(tmp, env, "octet-host", "--version")
	if err != nil || !strings.Contains(ver, "octet-host "+v+" ") {
		return fmt.Errorf("fresh-directory: octet-host --version said %q (%v), want version %s", ver, err, v)
	}
	work := filepath.Join(tmp, "work")
	if err := freshRefusesWithoutSDK(work, env); err != nil {
		return fmt.Errorf("fresh-directory: %w", err)
	}
	passed := 1
	fmt.Println("fresh-directory: new without --sdk refuses, naming --sdk and go run mage.go dist")
	for _, lang := range freshLanguages {
		if err := freshScaffold(work, dist, env, lang); err != nil {
			return fmt.Errorf("fresh-directory, %s: %w", lang, err)
		}
		passed++
		fmt.Printf("fresh-directory: %s scaffold installed from dist/, README commands passed, certified, bundle installed\n", lang)
	}
	if err := freshMCP(work, dist, env, v); err != nil {
		return fmt.Errorf("fresh-directory: %w", err)
	}
	passed++
	fmt.Println("fresh-directory: octet-mcp bundle installed from dist/ and called")
	fmt.Printf("fresh-directory: %d passed, 0 failed\n", passed)
	return nil
}

// freshRefusesWithoutSDK runs `new` without --sdk in the fresh directory (no checkout
// upwards): there is no SDK package to install yet, so it must refuse with the way out
// (--sdk and the command that writes dist/) and write nothing.
func freshRefusesWithoutSDK(work string, env []string) error {
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	out, err := freshRun(work, env, "octet-host", "new", "--lang", "python", "no-sdk")
	if err == nil || !strings.Contains(out, "--sdk") || !strings.Contains(out, "go run mage.go dist") {
		return fmt.Errorf("new without --sdk outside a checkout: %v, want a refusal naming --sdk and go run mage.go dist:\n%s", err, out)
	}
	if _, serr := os.Stat(filepath.Join(work, "no-sdk")); !os.IsNotExist(serr) {
		return fmt.Errorf("the refused new wrote %s", filepath.Join(work, "no-sdk"))
	}
	return nil
}

// freshScaffold scaffolds one language's extension with the released octet-host and
// proves it the way its README says.
func freshScaffold(work, dist string, env []string, lang string) error {
	name := "fresh-" + lang
	dir := filepath.Join(work, name)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	printed, err := freshRun(work, env, "octet-host", "new", "--lang", lang, "--sdk", dist, name, dir)
	if err != nil {
		return fmt.Errorf("octet-host new: %v\n%s", err, printed)
	}
	if err := refuseCheckoutPaths(dir); err != nil {
		return err
	}
	// The commands `new` prints are its README's (one list); they are run as printed.
	_, next, ok := strings.Cut(printed, "next, in "+dir+":\n")
	if !ok {
		return fmt.Errorf("octet-host new printed no next steps:\n%s", printed)
	}
	var cmds []string
	for _, line := range strings.Split(next, "\n") {
		if c := strings.TrimSpace(line); c != "" {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) < 3 {
		return fmt.Errorf("octet-host new printed %d next steps, want the install/test steps, a call and certify:\n%s", len(cmds), printed)
	}
	if out, err := freshRun(dir, env, "sh", "-ec", strings.Join(cmds, "\n")); err != nil {
		return fmt.Errorf("the README's commands failed: %v\n%s\n--- output:\n%s", err, strings.Join(cmds, "\n"), out)
	}
	if err := refuseCheckoutPaths(dir); err != nil {
		return err // nothing the build wrote (lock files, go.sum, venv) points back either
	}
	// The README's own certify ran in its shell (with its venv on PATH); this reads the
	// verdict as JSON through the same shell set-up.
	setup := strings.Join(cmds[:len(cmds)-2], "\n")
	out, err := freshRun(dir, env, "sh", "-ec", setup+"\noctet-host certify --json .")
	var rep struct{ Passed, Failed int }
	if jerr := json.Unmarshal([]byte(lastJSON(out)), &rep); jerr != nil || err != nil || rep.Failed != 0 || rep.Passed < 8 {
		return fmt.Errorf("certify: %v, %d passed, %d failed\n%s", err, rep.Passed, rep.Failed, out)
	}
	archive := filepath.Join(work, name+".tar.gz")
	if err := packBundle(dir, archive); err != nil {
		return err
	}
	if out, err := freshRun(work, env, "octet-host", "bundle", "install", "--root", filepath.Join(work, "extensions"), archive); err != nil {
		return fmt.Errorf("bundle install of the packed scaffold: %v\n%s", err, out)
	}
	return nil
}

// freshEnv is the environment of the fresh directory: a new HOME, the released octet-host
// first on PATH and no PATH entry inside the checkout. The Go module cache is a new one:
// a shared cache would serve a sdk-go@vVERSION extracted from an earlier dist (module
// versions are immutable there), not this one. The Go build cache and the npm and pip
// download caches are the machine's: they are keyed by content, so they cannot go stale.
func freshEnv(tmp, bin string) []string {
	var path []string
	path = append(path, bin)
	for _, p := range filepath.SplitList(os.Getenv("PATH")) {
		if abs, err := filepath.Abs(p); err == nil && !within(abs, root()) {
			path = append(path, p)
		}
	}
	home := filepath.Join(tmp, "home")
	_ = os.MkdirAll(home, 0o755)
	env := []string{"PATH=" + strings.Join(path, string(os.PathListSeparator)), "HOME=" + home, "TMPDIR=" + os.TempDir(), "LANG=C.UTF-8"}
	env = append(env, "GOMODCACHE="+filepath.Join(tmp, "gomodcache"))
	for _, k := range []string{"GOCACHE", "GOPROXY", "GOSUMDB", "GOTOOLCHAIN"} {
		if val := goEnv(k); val != "" {
			env = append(env, k+"="+val)
		}
	}
	if h, err := os.UserHomeDir(); err == nil {
		env = append(env, "npm_config_cache="+filepath.Join(h, ".npm"), "PIP_CACHE_DIR="+filepath.Join(h, ".cache", "pip"))
	}
	return env
}

func goEnv(k string) string {
	out, err := exec.Command("go", "env", k).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// freshRun runs a command in the fresh environment; octet-host is the released binary
// (the first PATH entry of env: exec.Command itself would search this process's PATH).
func freshRun(dir string, env []string, name string, args ...string) (string, error) {
	if name == "octet-host" {
		for _, e := range env {
			if p, ok := strings.CutPrefix(e, "PATH="); ok {
				name = filepath.Join(filepath.SplitList(p)[0], "octet-host")
			}
		}
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// refuseCheckoutPaths fails when any file of the scaffold (outside its own .venv and
// node_modules, which hold what was installed) names the checkout.
func refuseCheckoutPaths(dir string) error {
	needle := []byte(root())
	return filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == ".venv" || e.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if e.Type()&fs.ModeSymlink != 0 {
			if target, _ := os.Readlink(p); within(target, root()) {
				return fmt.Errorf("%s links into the checkout (%s)", p, target)
			}
			return nil
		}
		if e.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), string(needle)) {
			return fmt.Errorf("%s names the checkout %s: the scaffold must not reach into it", p, root())
		}
		return nil
	})
}

// packBundle writes dir as a bundle archive: one root directory named for the extension,
// without what an install recreates (.venv, node_modules).
func packBundle(dir, archive string) error {
	f, err := os.Create(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	base := filepath.Dir(dir)
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == ".venv" || e.Name() == "node_modules" || e.Name() == "__pycache__" || e.Name() == ".mypy_cache") {
			return filepath.SkipDir
		}
		if e.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		hdr, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if e.IsDir() {
			hdr.Name += "/"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if e.Type().IsRegular() {
			src, err := os.Open(p)
			if err != nil {
				return err
			}
			defer src.Close()
			_, err = io.Copy(tw, src)
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// verifySums checks dist/SHA256SUMS against every file it lists, and that it lists all.
func verifySums(dist string) error {
	f, err := os.Open(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		return fmt.Errorf("fresh-directory: dist/SHA256SUMS: %w", err)
	}
	defer f.Close()
	listed := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, rel, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			return fmt.Errorf("fresh-directory: SHA256SUMS line %q is malformed", sc.Text())
		}
		b, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("fresh-directory: SHA256SUMS lists %s: %w", rel, err)
		}
		h := sha256.Sum256(b)
		if hex.EncodeToString(h[:]) != sum {
			return fmt.Errorf("fresh-directory: %s does not match SHA256SUMS", rel)
		}
		listed[rel] = true
	}
	return filepath.WalkDir(dist, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dist, p)
		if rel != "SHA256SUMS" && !listed[filepath.ToSlash(rel)] {
			return fmt.Errorf("fresh-directory: %s is not in SHA256SUMS", rel)
		}
		return nil
	})
}

// lastJSON returns the last line of out that starts a JSON object through the end (the
// report certify --json prints after whatever the setup commands printed).
func lastJSON(out string) string {
	if i := strings.LastIndex(out, "\n{"); i >= 0 {
		return out[i+1:]
	}
	return out
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		return copyFile(p, target, info.Mode().Perm())
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, mode)
}
