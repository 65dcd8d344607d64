package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// main prints the surface of the SDK package two directories up from this file's package
// (sdk-go), wherever it is run from.
func main() {
	dir := sdkDir()
	s, err := Read(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apisurface:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil { // map keys are written sorted
		fmt.Fprintln(os.Stderr, "apisurface:", err)
		os.Exit(1)
	}
}

// sdkDir is sdk-go: from the source file's path when built from source (go run), else the
// working directory's sdk-go.
func sdkDir() string {
	if _, file, _, ok := runtime.Caller(0); ok {
		if d := filepath.Join(filepath.Dir(file), "..", ".."); exists(filepath.Join(d, "go.mod")) {
			return d
		}
	}
	if exists("sdk-go/go.mod") {
		return "sdk-go"
	}
	return "."
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }
