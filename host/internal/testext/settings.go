package testext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	settingsOnce sync.Once
	settingsBin  string
	settingsErr  error
)

// SettingsManifest is settingsext's manifest: three settings (a defaulted greeting, a
// bounded limit, a secret named by the token) and its one tool.
const SettingsManifest = `name = %q
version = "1.0.0"
api_version = "0.4"
[entrypoint]
command = %q
args = [%s]
[capabilities]
secrets = ["API_TOKEN"]
read = [%q]
[contributes]
tools = ["show", "key"]
[settings]
type = "object"
additionalProperties = false
required = ["limit"]
[settings.properties.greeting]
type = "string"
default = "Hello"
[settings.properties.limit]
type = "integer"
minimum = 1
maximum = 10
[settings.properties.token]
type = "string"
format = "secret-name"
`

// SettingsLanguages are the languages WriteSettings lays the fixture out in.
var SettingsLanguages = []string{"go", "python", "typescript"}

// WriteSettings writes root/<name> for the settings fixture in lang: Go builds settingsext
// once (the Go SDK); Python and TypeScript run host/testdata/settings (the TypeScript one
// needs sdk-typescript/dist: without it the test is skipped, as the family fixtures are).
func WriteSettings(t testing.TB, root, name string) string {
	t.Helper()
	return WriteSettingsIn(t, root, name, "go")
}

// WriteSettingsIn is WriteSettings for one of SettingsLanguages.
func WriteSettingsIn(t testing.TB, root, name, lang string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	fixtures := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "settings")
	var command, args string
	switch lang {
	case "python":
		command, _ = filepath.Abs(filepath.Join(fixtures, "python", "run"))
	case "typescript":
		sdk := filepath.Join(fixtures, "..", "..", "..", "sdk-typescript", "dist", "src", "index.js")
		if _, err := os.Stat(sdk); err != nil {
			t.Skipf("the TypeScript SDK is not built (go run mage.go buildTypeScript): %v", err)
		}
		script, _ := filepath.Abs(filepath.Join(fixtures, "typescript", "extension.mjs"))
		command, args = "node", fmt.Sprintf("%q", script)
	default:
		command = settingsBinary(t)
	}
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The Python and TypeScript fixtures run from the kit (host/testdata, the SDK sources, the
	// kit's .venv), outside the extension's own directory: the manifest declares it readable.
	kit, _ := filepath.Abs(filepath.Join(fixtures, "..", "..", ".."))
	if err := os.WriteFile(filepath.Join(dir, "extension.toml"), fmt.Appendf(nil, SettingsManifest, name, command, args, kit), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// settingsBinary builds settingsext once per test process.
func settingsBinary(t testing.TB) string {
	t.Helper()
	settingsOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		var dir string
		if dir, settingsErr = os.MkdirTemp("", "settingsext-"); settingsErr != nil {
			return
		}
		settingsBin = filepath.Join(dir, "settingsext")
		cmd := exec.Command("go", "build", "-o", settingsBin, ".")
		cmd.Dir = filepath.Join(filepath.Dir(file), "settingsext")
		if out, err := cmd.CombinedOutput(); err != nil {
			settingsErr = fmt.Errorf("building settingsext: %v\n%s", err, out)
		}
	})
	if settingsErr != nil {
		t.Fatal(settingsErr)
	}
	return settingsBin
}
