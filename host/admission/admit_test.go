package admission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
)

func entry(name string, src discovery.Source, path string) *discovery.Entry {
	return &discovery.Entry{Name: name, Source: src, Dir: filepath.Dir(path), ManifestPath: path, Manifest: &manifest.Manifest{Name: name}}
}

func TestGates(t *testing.T) {
	global := entry("git", discovery.Global, "/home/u/.octet/extensions/git/extension.toml")
	project := entry("git", discovery.Project, "/ws/.octet/extensions/git/extension.toml")
	explicit := entry("git", discovery.Explicit, "/x/git/extension.toml")
	invalid := &discovery.Entry{Name: "bad", Source: discovery.Global}
	cases := []struct {
		name   string
		policy admission.Policy
		e      *discovery.Entry
		want   admission.State
	}{
		{"invalid never starts", admission.Policy{FullAccess: true, Enabled: []string{"bad"}}, invalid, admission.Invalid},
		{"not enabled", admission.Policy{PersistentTrust: []string{"git"}}, global, admission.Disabled},
		{"enabled untrusted", admission.Policy{Enabled: []string{"git"}}, global, admission.Untrusted},
		{"bare grant global", admission.Policy{Enabled: []string{"git"}, PersistentTrust: []string{"git"}}, global, admission.Admitted},
		{"bare grant not for project", admission.Policy{Enabled: []string{"git"}, PersistentTrust: []string{"git"}}, project, admission.Untrusted},
		{"bare grant not for explicit", admission.Policy{Enabled: []string{"git"}, PersistentTrust: []string{"git"}}, explicit, admission.Untrusted},
		{"path grant project", admission.Policy{Enabled: []string{"git"}, PersistentTrust: []string{"git@/ws/.octet/extensions/git/extension.toml"}}, project, admission.Admitted},
		{"path grant other path", admission.Policy{Enabled: []string{"git"}, PersistentTrust: []string{"git@/other/git/extension.toml"}}, project, admission.Untrusted},
		{"one-shot trust", admission.Policy{EnableOnce: []string{"git"}, TrustOnce: []string{"git"}}, explicit, admission.Admitted},
		{"trust does not enable", admission.Policy{TrustOnce: []string{"git"}}, explicit, admission.Disabled},
		{"full access implicit trust", admission.Policy{Enabled: []string{"git"}, FullAccess: true}, project, admission.Admitted},
		{"safe mode beats grants", admission.Policy{Enabled: []string{"git"}, PersistentTrust: []string{"git"}, SafeMode: true, FullAccess: true}, global, admission.SafeMode},
		{"explicit call dir", admission.Policy{Explicit: []string{"/x/git"}}, explicit, admission.Admitted},
		{"explicit call dir still safe mode", admission.Policy{Explicit: []string{"/x/git"}, SafeMode: true}, explicit, admission.SafeMode},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.policy.Admit(c.e)
			if d.State != c.want {
				t.Fatalf("got %s (%s), want %s", d.State, d.Reason, c.want)
			}
		})
	}
	d := (&admission.Policy{Enabled: []string{"git"}}).Admit(project)
	if d.Grant != "git@/ws/.octet/extensions/git/extension.toml" || !strings.Contains(d.Reason, "--trust-extension git") {
		t.Fatalf("grant suggestion: %+v", d)
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if c, err := admission.LoadConfig(path); err != nil || len(c.EnabledExtensions) != 0 {
		t.Fatalf("missing config: %v", err)
	}
	os.WriteFile(path, []byte(`enabled_extensions = ["a"]
trusted_extensions = ["a", "b@/p/b/extension.toml"]
pass_env = ["X"]
`), 0o600)
	c, err := admission.LoadConfig(path)
	if err != nil || c.EnabledExtensions[0] != "a" || c.TrustedExtensions[1] != "b@/p/b/extension.toml" || c.PassEnv[0] != "X" {
		t.Fatalf("%+v %v", c, err)
	}
	for body, want := range map[string]string{
		`trusted_extension = ["a"]`:             "unknown key(s) trusted_extension",
		`trusted_extensions = ["b@relative"]`:   "trusted_extensions[0]",
		`enabled_extensions = "a"`:              "config",
		`trusted_workspaces = ["not/absolute"]`: "absolute",
	} {
		os.WriteFile(path, []byte(body), 0o600)
		if _, err := admission.LoadConfig(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", body, err, want)
		}
	}
	if g, err := admission.ParseEnvGrants(" a, b@/x/b/extension.toml ,"); err != nil || len(g) != 2 {
		t.Errorf("env grants %v %v", g, err)
	}
	if _, err := admission.ParseEnvGrants("@x"); err == nil {
		t.Errorf("bad env grant accepted")
	}
}

func TestProjectConfigCannotGrantTrust(t *testing.T) {
	ws := t.TempDir()
	path := admission.ProjectConfigPath(ws)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("enabled_extensions = [\"p\"]\ntrusted_extensions = [\"p\"]\n"), 0o600)
	c, warnings, err := admission.LoadProjectConfig(path)
	if err != nil || len(c.EnabledExtensions) != 1 || len(c.TrustedExtensions) != 0 || len(warnings) != 1 {
		t.Fatalf("%+v %v %v", c, warnings, err)
	}
}
