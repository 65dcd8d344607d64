package schema_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The source of truth depends on no SDK: schema/ and every kit package it imports, followed
// transitively, import nothing under sdk-go (strict JSON comes from schema/internal/strictjson,
// the generated copy of the Go SDK's decoder).
func TestSchemaImportsNoSDK(t *testing.T) {
	const mod = "github.com/octet-kit/octet/"
	seen := map[string]bool{}
	var visit func(dir, via string)
	visit = func(dir, via string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if len(pkgs) == 0 {
			t.Fatalf("%s holds no Go package", dir)
		}
		for _, p := range pkgs {
			for name, f := range p.Files {
				for _, imp := range f.Imports {
					path, _ := strconv.Unquote(imp.Path.Value)
					if !strings.HasPrefix(path, mod) {
						continue
					}
					rel := strings.TrimPrefix(path, mod)
					if rel == "sdk-go" || strings.HasPrefix(rel, "sdk-go/") {
						t.Errorf("%s imports %s (reached via %s)", name, path, via)
						continue
					}
					visit(filepath.Join("..", filepath.FromSlash(rel)), via+" -> "+path)
				}
			}
		}
	}
	visit(".", "schema")
	if !seen[filepath.Join("..", "schema", "internal", "strictjson")] {
		t.Errorf("schema/ no longer imports schema/internal/strictjson; the walk followed %v", seen)
	}
}
