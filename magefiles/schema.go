//go:build mage

package main

// Generate regenerates every file derived from schema/: the synthesized vectors
// (schema/vectors/<Type>/{valid,invalid}/), then Go, Python, TypeScript and the docs.
func Generate() error {
	if !exists("codegen") {
		return nil
	}
	if err := run(".", nil, "go", "run", "./codegen/cmd/octet-vectors"); err != nil {
		return err
	}
	return run(".", nil, "go", "run", "./codegen/cmd/octet-codegen", "-out", ".")
}

// Drift regenerates in memory and fails, listing the stale files, when a committed
// generated file differs from what the schema produces. (Stale synthesized vectors are
// caught by TestSynthesizedVectorsCurrent under go test.)
func Drift() error {
	if !exists("codegen") {
		return nil
	}
	if err := run(".", nil, "go", "run", "./codegen/cmd/octet-codegen", "-check", "."); err != nil {
		return err
	}
	return InspectorDrift()
}

// Breaking compares schema/ with the last release's baseline in schema/baseline/ and
// fails on a change that would break existing extensions or hosts.
func Breaking() error {
	if !exists("codegen") {
		return nil
	}
	return run(".", nil, "go", "run", "./codegen/cmd/octet-breaking", "schema/baseline", "schema")
}
