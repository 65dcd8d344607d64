package main

// Generate regenerates every file derived from schema/ (Go, Python, TypeScript, docs).
func Generate() error {
	if !exists("codegen") {
		return nil
	}
	return run(".", nil, "go", "run", "./codegen/cmd/octet-codegen", "-out", ".")
}

// Drift regenerates into a temporary directory and fails, listing the stale files,
// when a committed generated file differs from what the schema produces.
func Drift() error {
	if !exists("codegen") {
		return nil
	}
	return run(".", nil, "go", "run", "./codegen/cmd/octet-codegen", "-check", ".")
}

// Breaking compares schema/ with the last release's baseline in schema/baseline/ and
// fails on a change that would break existing extensions or hosts.
func Breaking() error {
	if !exists("codegen") {
		return nil
	}
	return run(".", nil, "go", "run", "./codegen/cmd/octet-breaking", "schema/baseline", "schema")
}
