// Package docs_test runs the guides: every shell and code block of README.md and
// docs/*.md is run (or checked) by TestDocBlocks, or marked on the line before it as
// `<!-- not runnable: why -->`. A block marked `<!-- file: PATH -->` must appear in that
// repository file verbatim, so a guide quoting an example cannot drift from it.
//
// How each kind is run:
//   - sh: the block as one `sh -e` script from the repository root, with a freshly
//     built octet-host first on PATH; every "/tmp/" in it names a fresh directory.
//   - json: a strict parse.
//   - toml: a manifest (it has [entrypoint]) goes through the host's manifest validation;
//     anything else must parse as TOML.
//   - go, python, ts: a whole file, type-checked by go vet, mypy --strict or tsc --strict
//     (snippets_test.go);
//   - other languages (yaml): only with a file: or not-runnable mark.
//
// Untyped blocks (```) are text: layout trees and sample output.
package docs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/conformance"
	"github.com/octet-kit/octet/host/manifest"
)

// block is one fenced code block.
type block struct {
	file, lang, mark string
	line             int
	body             string
}

var markPattern = regexp.MustCompile(`^<!--\s*(not runnable|file):\s*(.+?)\s*-->$`)

// blocks returns the fenced blocks of a Markdown file with the mark on the line before each.
func blocks(t *testing.T, path string) []block {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	var out []block
	for i := 0; i < len(lines); i++ {
		fence, ok := strings.CutPrefix(lines[i], "```")
		if !ok {
			continue
		}
		b := block{file: path, lang: strings.Fields(fence + " x")[0], line: i + 1}
		if b.lang == "x" {
			b.lang = ""
		}
		if i > 0 {
			if m := markPattern.FindStringSubmatch(strings.TrimSpace(lines[i-1])); m != nil {
				b.mark = m[1] + ": " + m[2]
			}
		}
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body = append(body, lines[i])
		}
		b.body = strings.Join(body, "\n") + "\n"
		out = append(out, b)
	}
	return out
}

func docFiles(t *testing.T) []string {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../README.md"}, files...)
}

func TestDocBlocks(t *testing.T) {
	ran, marked := 0, 0
	var snips []snippet
	for _, path := range docFiles(t) {
		for _, b := range blocks(t, path) {
			name := fmt.Sprintf("%s:%d", strings.TrimPrefix(b.file, "../"), b.line)
			switch {
			case b.lang == "":
				continue
			case strings.HasPrefix(b.mark, "not runnable: "):
				marked++
				continue
			case strings.HasPrefix(b.mark, "file: "):
				checkQuoted(t, name, b)
				if snippetLang(b.lang) != "" { // a quoted file is still one a reader copies
					snips = append(snips, snippet{name: name, lang: snippetLang(b.lang), body: b.body})
				}
			case b.lang == "sh" || b.lang == "bash":
				runShell(t, name, b)
			case b.lang == "json":
				if !json.Valid([]byte(b.body)) {
					t.Errorf("%s: the json block does not parse", name)
				}
			case b.lang == "toml":
				checkTOML(t, name, b)
			case snippetLang(b.lang) != "":
				snips = append(snips, snippet{name: name, lang: snippetLang(b.lang), body: b.body})
			default:
				t.Errorf("%s: a %s block is neither run nor marked; put <!-- file: PATH --> (the file it quotes) or <!-- not runnable: why --> on the line before it", name, b.lang)
				continue
			}
			ran++
		}
	}
	checkSnippets(t, snips)
	t.Logf("doc blocks: %d run or checked, %d marked not runnable", ran, marked)
}

// checkQuoted: the block is a verbatim excerpt of the file it names.
func checkQuoted(t *testing.T, name string, b block) {
	rel := strings.TrimPrefix(b.mark, "file: ")
	src, err := os.ReadFile(filepath.Join("..", rel))
	if err != nil {
		t.Errorf("%s: quotes %s: %v", name, rel, err)
		return
	}
	if !bytes.Contains(src, []byte(b.body)) {
		t.Errorf("%s: the block is not (any more) what %s says; copy it again", name, rel)
	}
}

func checkTOML(t *testing.T, name string, b block) {
	if strings.Contains(b.body, "[entrypoint]") {
		if _, diags := manifest.Parse([]byte(b.body), name, manifest.Options{OctetVersion: host.OctetVersion}); len(diags) > 0 {
			t.Errorf("%s: the manifest does not validate: %v", name, diags)
		}
		return
	}
	var v map[string]any
	if _, err := toml.Decode(b.body, &v); err != nil {
		t.Errorf("%s: the toml block does not parse: %v", name, err)
	}
}

// suiteCommand matches commands that run the kit's own suites or long jobs, or rebuild
// what other tests are running at the same moment (the Python venv, the TypeScript build):
// a guide that shows them must mark the block not runnable, or the doc test would run the
// test suite from inside the test suite, or rebuild an SDK under a running test.
var suiteCommand = regexp.MustCompile(`mage(\.go)? +(test|demo|bench|fuzz|fuzzDiff|fuzzQuick|dist|freshDir|pythonEnv|buildTypeScript|typeScriptEnv)\b|mage(\.go)?\s*(#|$)`)

func runShell(t *testing.T, name string, b block) {
	if m := suiteCommand.FindString(b.body); m != "" {
		t.Errorf("%s: the block runs %q (a whole suite or a long job); mark it <!-- not runnable: why -->", name, m)
		return
	}
	t.Run(name, func(t *testing.T) {
		script := strings.ReplaceAll(b.body, "/tmp/", t.TempDir()+"/")
		cmd := exec.Command("sh", "-e", "-c", script)
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "PATH="+hostBin(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: the commands fail: %v\n%s\n--- output:\n%s", name, err, script, out)
		}
	})
}

// hostBin builds octet-host once for the shell blocks that call it by name.
var hostBin = func() func(t *testing.T) string {
	var once sync.Once
	var dir string
	var err error
	return func(t *testing.T) string {
		once.Do(func() {
			if dir, err = os.MkdirTemp("", "doc-octet-host-"); err != nil {
				return
			}
			out, berr := exec.Command("go", "build", "-o", filepath.Join(dir, "octet-host"), "../host/cmd/octet-host").CombinedOutput()
			if berr != nil {
				err = fmt.Errorf("go build octet-host: %v\n%s", berr, out)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
}()

// TestDocFigures: counts the guides state ("all 47 checks") are the live ones.
func TestDocFigures(t *testing.T) {
	checks := len(conformance.Checks())
	figure := regexp.MustCompile(`\b(\d+) (?:conformance )?checks\b`)
	for _, path := range docFiles(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(raw), "\n") {
			for _, m := range figure.FindAllStringSubmatch(line, -1) {
				if n, _ := strconv.Atoi(m[1]); n != checks && n > 10 {
					t.Errorf("%s:%d says %q; the suite has %d checks", path, i+1, m[0], checks)
				}
			}
		}
	}
}
