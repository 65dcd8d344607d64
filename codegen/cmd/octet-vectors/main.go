// Command octet-vectors writes the synthesized baseline vectors into schema/vectors/<Type>/
// {valid,invalid}/<name>.json. Hand-written vectors in the same directories are kept.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/octet-kit/octet/codegen/internal/ir"
	"github.com/octet-kit/octet/codegen/internal/vectors"
)

func main() {
	m, err := ir.Load(os.DirFS("schema"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	vs, err := vectors.Synthesize(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, v := range vs {
		verdict := "invalid"
		if v.Valid {
			verdict = "valid"
		}
		dir := filepath.Join("schema", "vectors", v.Type, verdict)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := os.WriteFile(filepath.Join(dir, v.Name+".json"), v.JSON, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Printf("%d vectors\n", len(vs))
}
