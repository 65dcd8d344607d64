package admission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConfigExtensionTables(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, `
required_extensions = ["owner"]
sandbox = "enforce"
[extensions.hello-world]
sandbox = "off"
[extensions.hello-world.settings]
greeting = "Hi <&> \"q\""
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Extensions["hello-world"]; got.Sandbox != "off" || got.Settings["greeting"] != "Hi <&> \"q\"" {
		t.Fatalf("extension table = %+v", got)
	}
	if len(c.RequiredExtensions) != 1 || c.RequiredExtensions[0] != "owner" {
		t.Fatalf("required = %v", c.RequiredExtensions)
	}
}

func TestConfigRefusesBadSandboxModeAndUnknownKeys(t *testing.T) {
	for text, want := range map[string]string{
		`sandbox = "of"`:                     `sandbox: "of" is not a sandbox mode`,
		"[extensions.x]\nsandbox = \"none\"": `extensions.x.sandbox: "none" is not a sandbox mode`,
		"[extensions.x]\nsetings = {}":       "unknown key(s) extensions.x.setings",
		`required_extension = ["a"]`:         "known: enabled_extensions",
	} {
		_, err := LoadConfig(writeConfig(t, text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", text, err, want)
		}
	}
}

func TestRequiredExtensionsNamesAreChecked(t *testing.T) {
	for _, bad := range []string{`"../owner"`, `"Owner"`, `""`, `"a\u0000b"`, `"<x>"`} {
		if _, err := LoadConfig(writeConfig(t, "required_extensions = ["+bad+"]\n")); err == nil || !strings.Contains(err.Error(), "required_extensions[0]") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, err := LoadConfig(writeConfig(t, "required_extensions = 3\n")); err == nil {
		t.Error("a number was accepted as required_extensions")
	}
	c, err := LoadConfig(writeConfig(t, "required_extensions = [\"policy-owner\"]\n"))
	if err != nil || len(c.RequiredExtensions) != 1 {
		t.Fatalf("%v %v", c, err)
	}
}

// A workspace may add a requirement (it can only stop startup), never trust.
func TestProjectConfigMayRequire(t *testing.T) {
	path := writeConfig(t, "required_extensions = [\"policy-owner\"]\ntrusted_extensions = [\"policy-owner\"]\n")
	c, warnings, err := LoadProjectConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.RequiredExtensions) != 1 || c.RequiredExtensions[0] != "policy-owner" || len(c.TrustedExtensions) != 0 || len(warnings) != 1 {
		t.Fatalf("config %+v warnings %v", c, warnings)
	}
}

func TestDeniedToolsPatternsAreChecked(t *testing.T) {
	for _, bad := range []string{`"rm"`, `"../x/y"`, `"a/b/c"`, `"a/<b>"`, `"A/b"`} {
		if _, err := LoadConfig(writeConfig(t, "denied_tools = ["+bad+"]\n")); err == nil || !strings.Contains(err.Error(), "denied_tools[0]") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	c, err := LoadConfig(writeConfig(t, "denied_tools = [\"*/delete_*\", \"git-tools/git_push\"]\n"))
	if err != nil || len(c.DeniedTools) != 2 {
		t.Fatalf("%v %v", c, err)
	}
	// A workspace may add a denial: it only narrows the catalog.
	p, _, err := LoadProjectConfig(writeConfig(t, "denied_tools = [\"*/delete_*\"]\n"))
	if err != nil || len(p.DeniedTools) != 1 {
		t.Fatalf("%v %v", p, err)
	}
}
