package main

// Demo builds the host and the three SDKs, certifies every example and fixture of
// every language through the reference host, and prints the conformance matrix.
func Demo() error {
	if !exists("host/conformance") {
		return nil
	}
	return run(".", nil, "go", "run", "./host/cmd/octet-host", "certify", "--matrix", "examples")
}
