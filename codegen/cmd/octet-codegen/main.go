// Command octet-codegen generates the Go, Python, TypeScript and Markdown files derived from
// schema/.
//
//	octet-codegen -out .     # write every generated file below the repository root
//	octet-codegen -check .   # regenerate in memory and fail, listing stale files
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/octet-kit/octet/codegen/internal/gen"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

func main() {
	out := flag.String("out", "", "repository root to write generated files into")
	check := flag.String("check", "", "repository root to compare generated files against")
	schemaDir := flag.String("schema", "schema", "schema directory")
	flag.Parse()
	if err := run(*schemaDir, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "octet-codegen:", err)
		os.Exit(1)
	}
}

func run(schemaDir, out, check string) error {
	if err := ir.MetaValidate(os.DirFS(schemaDir)); err != nil {
		return err
	}
	m, err := ir.Load(os.DirFS(schemaDir))
	if err != nil {
		return err
	}
	gen.Examples = os.DirFS(filepath.Join(schemaDir, "vectors"))
	files, err := gen.Generate(m)
	if err != nil {
		return err
	}
	root := out
	if check != "" {
		root = check
	}
	if root == "" {
		return fmt.Errorf("give -out or -check")
	}
	if err := mirrorStrictJSON(os.DirFS(root), files); err != nil {
		return err
	}
	switch {
	case check != "":
		stale := gen.Stale(files, os.DirFS(check))
		if len(stale) > 0 {
			return fmt.Errorf("generated files are stale; run `go run mage.go generate`:\n  %s", joinLines(stale))
		}
		return nil
	case out != "":
		for _, p := range files.Paths() {
			dst := filepath.Join(out, filepath.FromSlash(p))
			if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, files[p]) {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(dst, files[p], 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("give -out or -check")
}

func joinLines(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString(x)
	}
	return b.String()
}
