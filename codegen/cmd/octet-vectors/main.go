// Command octet-vectors writes the synthesized baseline vectors into schema/vectors/<Type>/
// {valid,invalid}/synth-<name>.json and removes synthesized files it no longer produces.
// Hand-written vectors in the same directories (never named synth-*) are kept.
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
	want := map[string]bool{}
	for _, v := range vs {
		p := filepath.Join("schema", "vectors", filepath.FromSlash(v.Path()))
		want[p] = true
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := os.WriteFile(p, v.JSON, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	stale, _ := filepath.Glob(filepath.Join("schema", "vectors", "*", "*", vectors.SynthPrefix+"*.json"))
	for _, p := range stale {
		if !want[p] {
			if err := os.Remove(p); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	fmt.Printf("%d vectors\n", len(vs))
}
