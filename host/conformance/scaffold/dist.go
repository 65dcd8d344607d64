package scaffold

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// SDKModule is the Go SDK's module path.
const SDKModule = "github.com/octet-kit/octet/sdk-go"

// DistGoDir is where a Go scaffold made from a release directory keeps the SDK module,
// unpacked from the release's module zip: the go.mod replaces the SDK with this relative
// directory, so go build, go vet and go test need no GOPROXY, GONOSUMDB or GOFLAGS the
// author would have to know (the SDK is not on a public proxy yet). The directory holds
// its own go.mod, so the scaffold's ./... never includes it.
const DistGoDir = "octet-sdk-go"

// unpackGoSDK unpacks dist/goproxy/<module>/@v/vVERSION.zip into dir/DistGoDir, checking
// it as the Go tool would (paths, sizes, one module), and copies its go.sum next to the
// scaffold's go.mod; it returns the SDK's requirements for the scaffold's require block.
func unpackGoSDK(dist, version, dir string, res *Result) (string, error) {
	mv := module.Version{Path: SDKModule, Version: "v" + version}
	zip := filepath.Join(dist, "goproxy", filepath.FromSlash(SDKModule), "@v", mv.Version+".zip")
	if _, err := os.Stat(zip); err != nil {
		return "", fmt.Errorf("the release directory %s has no Go SDK module %s (write it with go run mage.go dist)", dist, zip)
	}
	target := filepath.Join(dir, DistGoDir)
	if err := modzip.Unzip(target, mv, zip); err != nil {
		return "", fmt.Errorf("unpacking the Go SDK from %s: %w", zip, err)
	}
	res.Files = append(res.Files, DistGoDir+"/")
	mod, err := os.ReadFile(filepath.Join(target, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("the Go SDK module in %s: %w", zip, err)
	}
	if sum, err := os.ReadFile(filepath.Join(target, "go.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
			return "", err
		}
		res.Files = append(res.Files, "go.sum")
	}
	return requiresOf(mod), nil
}
