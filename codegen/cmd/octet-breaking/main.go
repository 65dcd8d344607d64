// Command octet-breaking fails when the schema breaks its release baseline.
//
//	octet-breaking schema/baseline schema
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/breaking"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: octet-breaking <baseline dir> <schema dir>")
		os.Exit(2)
	}
	old, err := ir.Load(os.DirFS(os.Args[1]))
	if err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
		os.Exit(1)
	}
	cur, err := ir.Load(os.DirFS(os.Args[2]))
	if err != nil {
		fmt.Fprintln(os.Stderr, "schema:", err)
		os.Exit(1)
	}
	if bad := breaking.Compare(old, cur); len(bad) > 0 {
		fmt.Fprintf(os.Stderr, "breaking changes against %s:\n  %s\n", os.Args[1], strings.Join(bad, "\n  "))
		os.Exit(1)
	}
	fmt.Println("no breaking changes")
}
