//go:build ignore

// mage.go runs the project's build targets without an installed mage:
//
//	go run mage.go <target>
//
// The targets live in magefiles/.
package main

import (
	"os"

	"github.com/magefile/mage/mage"
)

func main() { os.Exit(mage.Main()) }
