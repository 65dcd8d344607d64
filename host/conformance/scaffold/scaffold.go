// Package scaffold writes a new extension in Go, Python or TypeScript that passes
// `octet-host certify` as written: a manifest, the code, a test through that SDK's
// testing helper, and a README.
//
// Inside a checkout of the kit (Options.Kit) the scaffold points at the kit's SDKs
// (PYTHONPATH, a node_modules link, a go.mod replace), so it runs without installing
// anything. With Options.SDK (a release directory written by `go run mage.go dist`) it
// installs the released packages from there; otherwise it uses the SDK packages of the
// kit's version from the usual registries. Only a kit scaffold holds paths into the kit;
// the others are bundle-ready (relative paths, requires_octet pinned). Templates live in
// templates/<language>/, one file each, with a .tmpl suffix so the Go tool never
// mistakes them for code.
package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"

	"github.com/octet-kit/octet/host"
)

//go:embed templates
var templates embed.FS

// Languages are the languages Generate can write.
var Languages = []string{"go", "python", "typescript"}

// Options say what to write where.
type Options struct {
	Lang string // go, python or typescript
	Name string // the extension name (also the directory name)
	Dir  string // the directory to create; it must not exist or be empty
	Kit  string // the kit checkout whose SDKs to use; "" = installed SDK packages
	// SDK is a release directory (dist/ of `go run mage.go dist`: the wheel, the npm
	// tarball and a file-system GOPROXY) to install the SDK from; it wins over Kit.
	SDK string
	// Host is how the README's commands invoke octet-host ("" = octet-host, on PATH); a
	// command that runs in another directory (go -C KIT run ...) sets HostElsewhere, and
	// the commands then name the scaffold by its absolute path instead of ".".
	Host          string
	HostElsewhere bool
}

// Result is what Generate wrote and what the author does next.
type Result struct {
	Files []string // paths relative to Dir
	Next  []string // commands to run, in order
}

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

// data is what the templates see.
type data struct {
	Name      string
	Python    string // interpreter for the run script
	PythonSDK string // the kit's sdk-python/src, put on PYTHONPATH
	TypeRoots string // the kit's @types directory for tsc
	Module    string // the Go module path of the scaffold
	Kit       string // the kit checkout (Go replace directive)
	Version   string // the kit's version: requires_octet and the SDK package versions
	Dist      string // Options.SDK, absolute
	// KitRequires are the Go SDK module's requirements, repeated (indirect) in the
	// scaffold's go.mod so it builds from the module cache with the kit's go.sum.
	KitRequires string
	// Read and Write are the sandbox's extra paths of the manifest ([capabilities]), as TOML
	// list items: what the launcher needs beyond the extension's own directory.
	Read, Write string
	// GoSDKDir is the scaffold's own copy of the Go SDK module (unpacked from Dist).
	GoSDKDir string
	Host     string // the octet-host command of the README (Options.Host)
	Here     string // the scaffold as the README's octet-host commands name it
}

// Generate writes the extension. It refuses an invalid name, an unknown language, and
// a directory that already has files (nothing is overwritten).
func Generate(o Options) (*Result, error) {
	if !namePattern.MatchString(o.Name) {
		return nil, fmt.Errorf("name %q must match ^[a-z][a-z0-9_-]{0,63}$ (it is also the directory name)", o.Name)
	}
	if _, err := fs.Stat(templates, "templates/"+o.Lang); err != nil {
		return nil, fmt.Errorf("language %q is not one of %s", o.Lang, strings.Join(Languages, ", "))
	}
	if entries, err := os.ReadDir(o.Dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s already exists and is not empty; choose a new directory", o.Dir)
	}
	if base := filepath.Base(o.Dir); base != o.Name {
		return nil, fmt.Errorf("directory %s must be named %q like the extension (the host requires it)", o.Dir, o.Name)
	}
	d := data{Name: o.Name, Python: "python3", Module: "example.com/" + o.Name, Version: host.OctetVersion, Host: "octet-host", Here: "."}
	if o.Host != "" {
		d.Host = o.Host
	}
	if o.HostElsewhere {
		abs, err := filepath.Abs(o.Dir)
		if err != nil {
			return nil, err
		}
		d.Here = ShellQuote(abs)
	}
	if o.SDK != "" {
		dist, err := filepath.Abs(o.SDK)
		if err != nil {
			return nil, err
		}
		d.Dist = dist
		o.Kit = ""
	}
	if o.Kit != "" {
		kit, err := filepath.Abs(o.Kit)
		if err != nil {
			return nil, err
		}
		d.Kit = kit
		d.PythonSDK = filepath.Join(kit, "sdk-python", "src")
		if venv := filepath.Join(kit, ".venv", "bin", "python"); fileExists(venv) {
			d.Python = venv
		}
		d.TypeRoots = filepath.Join(kit, "sdk-typescript", "node_modules", "@types")
		if o.Lang == "go" {
			if d.KitRequires, err = kitRequires(kit); err != nil {
				return nil, err
			}
		}
	}
	d.Read, d.Write = sandboxPaths(o.Lang, d.Kit)
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	res := &Result{}
	if o.Lang == "go" && d.Dist != "" {
		var err error
		if d.KitRequires, err = unpackGoSDK(d.Dist, d.Version, o.Dir, res); err != nil {
			return nil, err
		}
		d.GoSDKDir = DistGoDir
	}
	root := "templates/" + o.Lang
	err := fs.WalkDir(templates, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, root+"/"), ".tmpl")
		body, err := render(p, d)
		if err != nil {
			return err
		}
		if strings.TrimSpace(string(body)) == "" {
			return nil // a template that renders empty does not apply to this scaffold
		}
		mode := fs.FileMode(0o644)
		if name := path.Base(rel); name == "run" || name == "launch" {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(o.Dir, rel), body, mode); err != nil {
			return err
		}
		res.Files = append(res.Files, rel)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := linkSDK(o, d, res); err != nil {
		return nil, err
	}
	if o.Lang == "go" && d.Kit != "" {
		sum, err := os.ReadFile(filepath.Join(d.Kit, "sdk-go", "go.sum"))
		if err != nil {
			return nil, fmt.Errorf("the kit's sdk-go/go.sum: %w", err)
		}
		if err := os.WriteFile(filepath.Join(o.Dir, "go.sum"), sum, 0o644); err != nil {
			return nil, err
		}
		res.Files = append(res.Files, "go.sum")
	}
	res.Next = nextSteps(o, d)
	return res, nil
}

func render(name string, d data) ([]byte, error) {
	src, err := templates.ReadFile(name)
	if err != nil {
		return nil, err
	}
	t, err := template.New(path.Base(name)).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// kitRequires returns the require lines of the kit's Go SDK module (sdk-go/go.mod),
// one per line with a tab and an indirect marker, ready for the scaffold's own require
// block. The SDK is a module of its own, so the scaffold never pulls the host's
// dependencies (SQLite, mage, TOML).
func kitRequires(kit string) (string, error) {
	b, err := os.ReadFile(filepath.Join(kit, "sdk-go", "go.mod"))
	if err != nil {
		return "", fmt.Errorf("the kit's sdk-go/go.mod: %w", err)
	}
	return requiresOf(b), nil
}

// requiresOf returns the require lines of a go.mod as kitRequires describes them.
func requiresOf(b []byte) string {
	var lines []string
	inBlock := false
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			inBlock = true
			continue
		case inBlock && line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "require ") && !strings.HasSuffix(line, "("):
			line = strings.TrimPrefix(line, "require ")
		case !inBlock:
			continue
		}
		mod, _, _ := strings.Cut(line, "//")
		if fields := strings.Fields(mod); len(fields) == 2 {
			lines = append(lines, fmt.Sprintf("\t%s %s // indirect\n", fields[0], fields[1]))
		}
	}
	sort.Strings(lines) // the order go.mod keeps, so a build needs no go.mod update
	return strings.Join(lines, "")
}

// linkSDK makes the kit's TypeScript SDK importable from the scaffold, as the kit's
// own examples do (a node_modules link instead of a second lock file).
func linkSDK(o Options, d data, res *Result) error {
	if o.Lang != "typescript" || d.Kit == "" {
		return nil
	}
	modules := filepath.Join(o.Dir, "node_modules")
	if err := os.MkdirAll(modules, 0o755); err != nil {
		return err
	}
	if err := os.Symlink(filepath.Join(d.Kit, "sdk-typescript"), filepath.Join(modules, "octet-extension-sdk")); err != nil {
		return err
	}
	res.Files = append(res.Files, "node_modules/octet-extension-sdk")
	return nil
}

// nextSteps are the README's commands (its first sh block), so what `new` prints and what
// the README says are one list, and the fresh-directory test runs exactly that list.
func nextSteps(o Options, d data) []string {
	body, err := render("templates/"+o.Lang+"/README.md.tmpl", d)
	if err != nil {
		return nil
	}
	return ReadmeCommands(string(body))
}

// ReadmeCommands returns the command lines of the first ```sh block of a README, without
// trailing comments and blank lines.
func ReadmeCommands(readme string) []string {
	_, block, ok := strings.Cut(readme, "```sh\n")
	if !ok {
		return nil
	}
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, line := range strings.Split(block, "\n") {
		if i := strings.Index(line, "  #"); i >= 0 {
			line = line[:i]
		}
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// Build compiles a kit scaffold once so it can start at once: tsc for TypeScript (the
// kit's compiler), go build for Go; Python needs nothing. Outside a kit it does nothing:
// the README's commands install the SDK and build. Its error carries the compiler's output.
func Build(o Options) error {
	if o.Kit == "" || o.SDK != "" {
		return nil // outside a kit the README's own commands install and build
	}
	var cmd *exec.Cmd
	switch o.Lang {
	case "typescript":
		tsc := "tsc"
		if o.Kit != "" {
			if p := filepath.Join(o.Kit, "sdk-typescript", "node_modules", ".bin", "tsc"); fileExists(p) {
				tsc = p
			}
		}
		cmd = exec.Command(tsc, "-p", ".")
	case "go":
		cmd = exec.Command("go", "build", "-o", "bin/"+o.Name, ".")
		cmd.Env = append(os.Environ(), "GOWORK=off")
	default:
		return nil
	}
	cmd.Dir = o.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) || len(out) > 0 {
			return fmt.Errorf("%s in %s: %v\n%s", strings.Join(cmd.Args, " "), o.Dir, err, out)
		}
		return fmt.Errorf("%s: %w", strings.Join(cmd.Args, " "), err)
	}
	return nil
}

// FindKit returns the kit checkout containing dir (the directory whose go.mod
// declares module github.com/octet-kit/octet), or "".
func FindKit(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module github.com/octet-kit/octet\n")) {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// SDKMissing says why a scaffold in lang cannot be proven in this kit checkout (its
// SDK is absent, or TypeScript's is not compiled), or "" when it can.
func SDKMissing(kit, lang string) string {
	switch lang {
	case "python":
		if !fileExists(filepath.Join(kit, "sdk-python", "src", "octet_extension", "__init__.py")) {
			return "sdk-python/src/octet_extension is absent"
		}
	case "typescript":
		if !fileExists(filepath.Join(kit, "sdk-typescript", "package.json")) {
			return "sdk-typescript is absent"
		}
		if !fileExists(filepath.Join(kit, "sdk-typescript", "dist", "src", "index.js")) ||
			!fileExists(filepath.Join(kit, "sdk-typescript", "node_modules", ".bin", "tsc")) {
			return "sdk-typescript is not built (go run mage.go buildTypeScript)"
		}
	case "go":
		if !fileExists(filepath.Join(kit, "sdk-go", "extension.go")) || !fileExists(filepath.Join(kit, "sdk-go", "octettest", "host.go")) {
			return "sdk-go (package octet and octettest) is absent"
		}
	default:
		return "unknown language " + lang
	}
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// ShellQuote quotes s for a POSIX shell when it holds anything but safe characters.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
