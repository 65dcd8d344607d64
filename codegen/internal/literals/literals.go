// Package literals finds hand-written source that spells a wire method name or a feature
// name as a string literal, where the generated constants (protocol.Method*, Feature*,
// METHOD_*/FEATURE_*, Method.*/FeatureName.*/Requests.*) should be used instead: a literal
// is a second copy of the schema that nothing checks.
package literals

import (
	"encoding/json"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Hit is one literal in one file.
type Hit struct {
	Path  string // slash-separated, relative to the repository root
	Line  int
	Value string
	// Key says the literal is an object key or index (`"x":`, `["x"]`, `.get("x"`): a schema
	// field that shares a feature's spelling (lifecycle_events, secrets), not the feature.
	Key bool
}

func (h Hit) String() string { return fmt.Sprintf("%s:%d: %q", h.Path, h.Line, h.Value) }

// Names are the method names (true) and feature names (false) of the schema.
type Names map[string]bool

// Offends says whether a literal spells a method name, or a feature name other than as an
// object key or index.
func (n Names) Offends(h Hit) bool {
	method, ok := n[h.Value]
	return ok && (method || !h.Key)
}

// ReadNames reads the method names of schema/methods.json and the Feature enum of
// schema/initialize.schema.json under root.
func ReadNames(root string) (Names, error) {
	var reg struct {
		Methods []struct {
			Name string `json:"name"`
		} `json:"methods"`
	}
	var init struct {
		Defs struct {
			Feature struct {
				Enum []string `json:"enum"`
			} `json:"Feature"`
		} `json:"$defs"`
	}
	for file, into := range map[string]any{"methods.json": &reg, "initialize.schema.json": &init} {
		b, err := os.ReadFile(filepath.Join(root, "schema", file))
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, into); err != nil {
			return nil, fmt.Errorf("schema/%s: %w", file, err)
		}
	}
	names := Names{}
	for _, f := range init.Defs.Feature.Enum {
		names[f] = false
	}
	for _, m := range reg.Methods {
		names[m.Name] = true
	}
	if len(reg.Methods) == 0 || len(init.Defs.Feature.Enum) == 0 {
		return nil, fmt.Errorf("no method or feature names found under %s/schema", root)
	}
	return names, nil
}

// skipDirs are never hand-written product source: tests and their data, docs, installed or
// built trees, benchmarks (measurement harnesses, some deliberately SDK-free floors) and the
// generator itself (its literals are schema keywords such as the kind "notification").
var skipDirs = map[string]bool{
	".git": true, "node_modules": true, ".venv": true, "dist": true, "__pycache__": true,
	"testdata": true, "tests": true, "test": true, "testsuites": true, "docs": true,
	"vectors": true, "error-vectors": true, "baseline": true, "bench": true, "generated": true,
	"_generated": true, "codegen": true,
}

// isTest says whether a file is a test by its name.
func isTest(name string) bool {
	return strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".test.ts") ||
		strings.HasPrefix(name, "test_") || name == "conftest.py" || strings.HasSuffix(name, ".d.ts")
}

// generated says whether a file carries the generated-code header on its first line.
func generated(src []byte) bool {
	first, _, _ := strings.Cut(string(src), "\n")
	return strings.Contains(first, "Code generated") && strings.Contains(first, "DO NOT EDIT")
}

// Scan lists every offending literal under root, sorted by path and line.
func Scan(root string, names Names) ([]Hit, error) {
	var hits []Hit
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		if (ext != ".go" && ext != ".py" && ext != ".ts") || isTest(d.Name()) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || generated(src) {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		var lits []Hit
		switch ext {
		case ".go":
			lits = goStrings(src)
		case ".py":
			lits = scriptStrings(src, "#", false)
		case ".ts":
			lits = scriptStrings(src, "//", true)
		}
		for _, l := range lits {
			if names.Offends(l) {
				l.Path = rel
				hits = append(hits, l)
			}
		}
		return nil
	})
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Path != hits[j].Path {
			return hits[i].Path < hits[j].Path
		}
		return hits[i].Line < hits[j].Line
	})
	return hits, err
}

// goStrings returns the string literals of Go source (comments are not literals).
func goStrings(src []byte) []Hit {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	var out []Hit
	prev := token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if n := len(out); n > 0 && out[n-1].Line < 0 {
			// the token after a string decides whether it was a key: `"x":` or `["x"]`
			out[n-1].Line = -out[n-1].Line
			out[n-1].Key = tok == token.COLON || (out[n-1].Key && tok == token.RBRACK)
		}
		if tok == token.STRING {
			if v, err := strconv.Unquote(lit); err == nil {
				out = append(out, Hit{Line: -fset.Position(pos).Line, Value: v, Key: prev == token.LBRACK})
			}
		}
		prev = tok
	}
}

// scriptStrings returns the string literals of Python or TypeScript source: quoted with ' or
// " (Python also triple-quoted; TypeScript also `...`), skipping comments (lineComment, and
// /* */ in TypeScript). Escapes are kept verbatim; a name never contains one.
func scriptStrings(src []byte, lineComment string, blockComments bool) []Hit {
	s := string(src)
	var out []Hit
	line := 1
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			line++
			i++
		case strings.HasPrefix(s[i:], lineComment):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case blockComments && strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return out
			}
			line += strings.Count(s[i:i+2+end], "\n")
			i += end + 4
		case c == '"' || c == '\'' || (blockComments && c == '`'):
			quote := string(c)
			if !blockComments && strings.HasPrefix(s[i:], strings.Repeat(quote, 3)) {
				quote = strings.Repeat(quote, 3)
			}
			start, j := i+len(quote), i+len(quote)
			for j < len(s) && !strings.HasPrefix(s[j:], quote) {
				if s[j] == '\\' {
					j++
				} else if s[j] == '\n' && len(quote) == 1 && c != '`' {
					break // an unterminated one-line string: stop at the line end
				}
				j++
			}
			if j > len(s) {
				j = len(s)
			}
			before := strings.TrimRight(s[:i], " \t")
			after := strings.TrimLeft(s[min(j+len(quote), len(s)):], " \t")
			key := strings.HasPrefix(after, ":") ||
				(strings.HasSuffix(before, "[") && strings.HasPrefix(after, "]")) ||
				(strings.HasSuffix(before, ".get(") && (strings.HasPrefix(after, ")") || strings.HasPrefix(after, ",")))
			out = append(out, Hit{Line: line, Value: s[start:j], Key: key})
			line += strings.Count(s[i:j], "\n")
			i = j + len(quote)
		default:
			i++
		}
	}
	return out
}
