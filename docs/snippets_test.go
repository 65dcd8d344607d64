package docs_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// snippet is a guide's Go, Python or TypeScript block: a whole file, with its package
// clause and imports in view, type-checked as the language's strictest tool sees it
// (go vet, mypy --strict, tsc --strict), so a reader who copies it gets code that compiles.
type snippet struct {
	name, lang, body string
}

func snippetLang(lang string) string {
	switch lang {
	case "go":
		return "go"
	case "python", "py":
		return "python"
	case "ts", "typescript":
		return "typescript"
	}
	return ""
}

// checkSnippets type-checks every snippet, one tool run per language; an error names the
// guide and line of the snippet it is in.
func checkSnippets(t *testing.T, snips []snippet) {
	by := map[string][]snippet{}
	for _, s := range snips {
		by[s.lang] = append(by[s.lang], s)
	}
	t.Run("go", func(t *testing.T) { checkGoSnippets(t, by["go"]) })
	t.Run("python", func(t *testing.T) { checkPythonSnippets(t, by["python"]) })
	t.Run("typescript", func(t *testing.T) { checkTypeScriptSnippets(t, by["typescript"]) })
}

// blame rewrites the generated file names in a tool's output to the guide's name.
func blame(out string, files map[string]string) string {
	for f, name := range files {
		out = strings.ReplaceAll(out, f, name+" (snippet)")
	}
	return out
}

func checkGoSnippets(t *testing.T, snips []snippet) {
	if len(snips) == 0 {
		return
	}
	// Inside the kit's module (under testdata, which ./... never matches), so a snippet
	// imports the SDK and the host as an example does.
	dir, err := os.MkdirTemp("testdata", "snippets-")
	if err != nil {
		if err = os.MkdirAll("testdata", 0o755); err == nil {
			dir, err = os.MkdirTemp("testdata", "snippets-")
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(dir); os.Remove("testdata") })
	files := map[string]string{}
	var pkgs []string
	for i, s := range snips {
		if !strings.HasPrefix(s.body, "package ") && !strings.Contains(s.body, "\npackage ") {
			t.Errorf("%s: a Go snippet starts with its package clause (then its imports), so it can be copied as a file", s.name)
			continue
		}
		pkg := filepath.Join(dir, fmt.Sprintf("s%02d", i))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(pkg, "main.go")
		if err := os.WriteFile(f, []byte(s.body), 0o644); err != nil {
			t.Fatal(err)
		}
		files[f] = s.name
		pkgs = append(pkgs, "./"+pkg)
	}
	if len(pkgs) == 0 {
		return
	}
	out, err := exec.Command("go", append([]string{"vet"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Errorf("go vet of the guides' Go snippets: %v\n%s", err, blame(string(out), files))
	}
}

func checkPythonSnippets(t *testing.T, snips []snippet) {
	if len(snips) == 0 {
		return
	}
	mypy := filepath.Join("..", ".venv", "bin", "mypy")
	if _, err := os.Stat(mypy); err != nil {
		t.Skip("no kit .venv with mypy (go run mage.go pythonEnv)")
	}
	dir := t.TempDir()
	files := map[string]string{}
	args := []string{"--strict", "--no-incremental", "--cache-dir", filepath.Join(dir, ".mypy_cache")}
	for i, s := range snips {
		f := filepath.Join(dir, fmt.Sprintf("snippet_%02d.py", i))
		if err := os.WriteFile(f, []byte(s.body), 0o644); err != nil {
			t.Fatal(err)
		}
		files[f] = s.name
		args = append(args, f)
	}
	sdk, _ := filepath.Abs(filepath.Join("..", "sdk-python", "src"))
	cmd := exec.Command(mypy, args...)
	cmd.Env = append(os.Environ(), "MYPYPATH="+sdk)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("mypy --strict of the guides' Python snippets: %v\n%s", err, blame(string(out), files))
	}
}

var tsconfig = `{
  "compilerOptions": {
    "target": "ES2022", "lib": ["ES2022"], "module": "NodeNext", "moduleResolution": "NodeNext",
    "types": ["node"], "typeRoots": [%q],
    "strict": true, "noEmit": true, "skipLibCheck": true
  },
  "include": ["*.ts"]
}
`

func checkTypeScriptSnippets(t *testing.T, snips []snippet) {
	if len(snips) == 0 {
		return
	}
	sdk, _ := filepath.Abs(filepath.Join("..", "sdk-typescript"))
	tsc := filepath.Join(sdk, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(filepath.Join(sdk, "dist", "src", "index.d.ts")); err != nil {
		t.Skip("the TypeScript SDK is not built (go run mage.go buildTypeScript)")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(sdk, filepath.Join(dir, "node_modules", "octet-extension-sdk")); err != nil {
		t.Fatal(err)
	}
	must := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must("package.json", `{"type": "module", "private": true}`+"\n")
	must("tsconfig.json", fmt.Sprintf(tsconfig, filepath.Join(sdk, "node_modules", "@types")))
	files := map[string]string{}
	for i, s := range snips {
		name := fmt.Sprintf("snippet%02d.ts", i)
		must(name, s.body)
		files[name] = s.name
	}
	cmd := exec.Command(tsc, "-p", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("tsc --strict of the guides' TypeScript snippets: %v\n%s", err, blame(string(out), files))
	}
}
