package manifest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/manifest"
)

const valid = `
name = "git-tools"
version = "0.2.0"
api_version = "0.2"
requires_octet = "=0.8.0"
description = "Small local git helpers"

[entrypoint]
command = "git-tools"
args = ["--stdio"]

[capabilities]
filesystem = "workspace"
process = true
network = false
secrets = ["git.provider_token"]
environment = ["SSH_AUTH_SOCK"]

[contributes]
tools = ["git_status"]
commands = ["checkpoint"]
hooks = ["after_tool_call"]
ui = ["status"]
context = true
tool_renderers = ["git_status"]
notifications = true
confirmations = true
presentation = true

[runtime]
lifecycle = "workspace_service"
sharing = "workspace"
`

var opts = manifest.Options{OctetVersion: "0.8.0"}

func TestValidManifest(t *testing.T) {
	m, diags := manifest.Parse([]byte(valid), "/x/git-tools/extension.toml", opts)
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	if m.Name != "git-tools" || m.Entrypoint.Args[0] != "--stdio" || !m.Contributes.Presentation || m.Runtime.Sharing != "workspace" {
		t.Fatalf("decoded wrongly: %+v", m)
	}
	if len(m.Digest) != 64 || m.Principal() != "git-tools@"+m.Digest {
		t.Fatalf("digest/principal: %q %q", m.Digest, m.Principal())
	}
	if m.JSON["name"] != "git-tools" {
		t.Fatalf("JSON form lost the name: %v", m.JSON)
	}
}

func TestDefaults(t *testing.T) {
	m, diags := manifest.Parse([]byte("name=\"a\"\nversion=\"1.0.0\"\napi_version=\"0.4\"\n[entrypoint]\ncommand=\"a\"\n"), "/x/a/extension.toml", opts)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if m.Runtime.Lifecycle != "legacy_resident" || m.Runtime.Sharing != "isolated" || m.Capabilities.Filesystem != "workspace" {
		t.Fatalf("defaults not applied: %+v", m.Runtime)
	}
}

// Each case edits the valid manifest and names the field and rule that must be reported.
func TestInvalidManifests(t *testing.T) {
	cases := []struct {
		name, old, new, field, rule, msg string
	}{
		{"bad name", `name = "git-tools"`, `name = "Git"`, "name", manifest.RulePattern, ""},
		{"missing version", `version = "0.2.0"`, ``, "version", manifest.RuleRequired, "required"},
		{"bad semver", `version = "0.2.0"`, `version = "1.2"`, "version", manifest.RulePattern, "semantic"},
		{"api 0.3", `api_version = "0.2"`, `api_version = "0.3"`, "api_version", manifest.RuleAPIVersion, "distinct wire"},
		{"api 9", `api_version = "0.2"`, `api_version = "9.0"`, "api_version", manifest.RuleAPIVersion, "not supported"},
		{"api number", `api_version = "0.2"`, `api_version = 0.2`, "api_version", manifest.RuleType, "string"},
		{"octet mismatch", `requires_octet = "=0.8.0"`, `requires_octet = "=0.9.0"`, "requires_octet", manifest.RuleRequiresOctet, "0.9.0"},
		{"octet range", `requires_octet = "=0.8.0"`, `requires_octet = ">=0.8.0"`, "requires_octet", manifest.RulePattern, "exact pin"},
		{"unknown top", `description =`, "colour = \"red\"\ndescription =", "colour", manifest.RuleUnknownField, "newer octet"},
		{"unknown nested", `process = true`, "process = true\ngpu = true", "capabilities.gpu", manifest.RuleUnknownField, "newer octet"},
		{"escaping command", `command = "git-tools"`, `command = "../other/bin"`, "entrypoint.command", manifest.RuleEntrypoint, "leaves"},
		{"empty command", `command = "git-tools"`, `command = ""`, "entrypoint.command", manifest.RuleLength, ""},
		{"args not strings", `args = ["--stdio"]`, `args = [1]`, "entrypoint.args[0]", manifest.RuleType, ""},
		{"bad hook", `hooks = ["after_tool_call"]`, `hooks = ["on_save"]`, "contributes.hooks[0]", manifest.RuleEnum, ""},
		{"dup tool", `tools = ["git_status"]`, `tools = ["git_status", "git_status"]`, "contributes.tools[1]", manifest.RuleUnique, "twice"},
		{"bad env", `environment = ["SSH_AUTH_SOCK"]`, `environment = ["AWS_SECRET"]`, "capabilities.environment[0]", manifest.RuleEnum, ""},
		{"bad secret", `secrets = ["git.provider_token"]`, `secrets = ["9bad"]`, "capabilities.secrets[0]", manifest.RulePattern, ""},
		{"service isolated", `sharing = "workspace"`, `sharing = "isolated"`, "runtime.sharing", manifest.RuleRuntime, "workspace_service"},
		{"session shared", `lifecycle = "workspace_service"`, `lifecycle = "session"`, "runtime.sharing", manifest.RuleRuntime, "isolated"},
		{"bad lifecycle", `lifecycle = "workspace_service"`, `lifecycle = "forever"`, "runtime.lifecycle", manifest.RuleEnum, ""},
		{"long description", `description = "Small local git helpers"`, `description = "` + strings.Repeat("é", 1025) + `"`, "description", manifest.RuleLength, "1025"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(valid, c.old, c.new, 1)
			if src == valid {
				t.Fatalf("case did not change the manifest")
			}
			_, diags := manifest.Parse([]byte(src), "/x/git-tools/extension.toml", opts)
			for _, d := range diags {
				if d.Field == c.field && d.Rule == c.rule && strings.Contains(d.Message, c.msg) {
					if d.File != "/x/git-tools/extension.toml" {
						t.Errorf("diagnostic names file %q", d.File)
					}
					return
				}
			}
			t.Fatalf("want %s/%s containing %q, got %v", c.field, c.rule, c.msg, diags)
		})
	}
}

func TestAPI01Restrictions(t *testing.T) {
	src := strings.NewReplacer(`api_version = "0.2"`, `api_version = "0.1"`, `tool_renderers = ["git_status"]`, `tool_renderers = ["other"]`,
		`hooks = ["after_tool_call"]`, `hooks = ["post_mutation"]`).Replace(valid)
	_, diags := manifest.Parse([]byte(src), "f", opts)
	want := map[string]string{
		"contributes.presentation":      manifest.RuleAPI01,
		"capabilities.environment":      manifest.RuleAPI01,
		"contributes.hooks[0]":          manifest.RuleAPI01,
		"runtime.sharing":               manifest.RuleAPI01,
		"contributes.tool_renderers[0]": manifest.RuleRenderer,
	}
	for _, d := range diags {
		if want[d.Field] == d.Rule {
			delete(want, d.Field)
		}
	}
	if len(want) > 0 {
		t.Fatalf("missing %v in %v", want, diags)
	}
}

func TestSyntaxAndDatesRefused(t *testing.T) {
	for _, src := range []string{"name = ", "name = 1979-05-27T07:32:00Z"} {
		_, diags := manifest.Parse([]byte(src), "f", opts)
		if len(diags) != 1 || diags[0].Rule != manifest.RuleSyntax {
			t.Errorf("%q: want one syntax diagnostic, got %v", src, diags)
		}
	}
}

func TestLoadRefusesSymlinksAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.toml")
	if err := os.WriteFile(real, []byte(valid), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "extension.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, d := manifest.Load(link, opts); len(d) != 1 || !strings.Contains(d[0].Message, "symbolic link") {
		t.Fatalf("symlink: %v", d)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", manifest.MaxManifestBytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, d := manifest.Load(big, opts); len(d) != 1 || !strings.Contains(d[0].Message, "larger than") {
		t.Fatalf("big: %v", d)
	}
	if _, d := manifest.Load(dir, opts); len(d) != 1 || !strings.Contains(d[0].Message, "not a regular file") {
		t.Fatalf("dir: %v", d)
	}
}

func TestWrongTypeForTable(t *testing.T) {
	src := "name=\"a\"\nversion=\"1.0.0\"\napi_version=\"0.4\"\nruntime=\"x\"\n[entrypoint]\ncommand=\"a\"\n"
	_, diags := manifest.Parse([]byte(src), "f", opts)
	if len(diags) != 1 || diags[0].Field != "runtime" || diags[0].Rule != manifest.RuleType {
		t.Fatalf("got %v", diags)
	}
}

// TestUnknownFieldSuggestsTheNearName: a near miss of a known field is blamed on the typo
// with the field it was meant to be, at any level; "may need a newer octet" only when no
// known field is close.
func TestUnknownFieldSuggestsTheNearName(t *testing.T) {
	for _, c := range []struct{ old, new, field, want, not string }{
		{`api_version = "0.2"`, `api_verison = "0.2"`, "api_verison", `did you mean "api_version"?`, "newer octet"},
		{`command = "git-tools"`, "comand = \"git-tools\"", "entrypoint.comand", `did you mean "command"?`, "newer octet"},
		{`process = true`, "proccess = true", "capabilities.proccess", `did you mean "process"?`, "newer octet"},
		{`description =`, "colour = \"red\"\ndescription =", "colour", "newer octet", "did you mean"},
	} {
		src := strings.Replace(valid, c.old, c.new, 1)
		if src == valid {
			t.Fatalf("%s: the fixture lacks %q", c.field, c.old)
		}
		_, diags := manifest.Parse([]byte(src), "/x/git-tools/extension.toml", opts)
		var got string
		for _, d := range diags {
			if d.Field == c.field && d.Rule == manifest.RuleUnknownField {
				got = d.Message
			}
		}
		if got == "" || !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%s: message %q, want %q and not %q (all: %v)", c.field, got, c.want, c.not, diags)
		}
	}
}
