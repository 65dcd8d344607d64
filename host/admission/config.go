// Package admission decides whether a discovered extension may start: the host config file,
// enablement, trust grants (persistent and one-shot), safe mode and full access.
package admission

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
)

// Config is the host's user config file (TOML).
//
//	enabled_extensions = ["hello-world"]
//	trusted_extensions = ["hello-world", "git-tools@/abs/project/.octet/extensions/git-tools/extension.toml"]
//	trusted_workspaces = ["/abs/project"]
//	pass_env = ["ANTHROPIC_API_KEY"]
//	required_extensions = ["policy-owner"]   # missing, disabled, untrusted or failed: no startup
//	denied_tools = ["*/delete_*"]              # never in the model's catalog, whatever the owner allows
//	sandbox = "enforce"                       # or "off": the operator opts the whole host out
//
//	[extensions.hello-world]                  # one table per extension, by name
//	sandbox = "off"                           # this extension alone runs unconfined
//	[extensions.hello-world.settings]         # the operator's values for its declared settings
//	greeting = "Hi"
//
// The keys are documented once in docs/host.md; a key added here is added to knownKeys too.
type Config struct {
	EnabledExtensions  []string                   `toml:"enabled_extensions"`
	TrustedExtensions  []string                   `toml:"trusted_extensions"`
	TrustedWorkspaces  []string                   `toml:"trusted_workspaces"`
	PassEnv            []string                   `toml:"pass_env"`
	RequiredExtensions []string                   `toml:"required_extensions"`
	DeniedTools        []string                   `toml:"denied_tools"`
	Sandbox            string                     `toml:"sandbox"`
	Extensions         map[string]ExtensionConfig `toml:"extensions"`
}

// ExtensionConfig is the operator's table for one extension ([extensions.NAME]).
type ExtensionConfig struct {
	// Sandbox "off" runs this extension unconfined; "" or "enforce" follows the host.
	Sandbox string `toml:"sandbox"`
	// Settings are the operator's values for the settings the manifest declares, validated
	// against the manifest's settings schema before the extension starts.
	Settings map[string]any `toml:"settings"`
}

// requiredNameRE is the manifest's extension-name pattern: a required name that could never
// match an extension is a typo, refused here rather than reported as "missing" later.
var requiredNameRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

// knownKeys lists the top-level keys, for the unknown-key message.
const knownKeys = "enabled_extensions, trusted_extensions, trusted_workspaces, pass_env, required_extensions, denied_tools, sandbox, extensions"

// LoadConfig reads path; a missing file is an empty config. Unknown keys are refused so a
// typo ("trusted_extension") does not silently grant or withhold anything.
func LoadConfig(path string) (Config, error) {
	var c Config
	data, err := manifest.ReadBounded(path, manifest.MaxManifestBytes)
	if err != nil {
		if _, statErr := os.Lstat(path); os.IsNotExist(statErr) {
			return c, nil
		}
		return c, fmt.Errorf("config %s: %v", path, err)
	}
	if err := manifest.CheckTOMLDepth(data); err != nil {
		return c, fmt.Errorf("config %s: %v", path, err)
	}
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		return c, fmt.Errorf("config %s: %v", path, err)
	}
	var keys []string
	for _, k := range md.Undecoded() {
		// A settings table is the extension's: its nested tables are values (judged by the
		// manifest's settings schema), even where the decoder reports them undecoded.
		if len(k) > 3 && k[0] == "extensions" && k[2] == "settings" {
			continue
		}
		keys = append(keys, k.String())
	}
	if len(keys) > 0 {
		sort.Strings(keys)
		return c, fmt.Errorf("config %s: unknown key(s) %s; known: %s", path, strings.Join(keys, ", "), knownKeys)
	}
	for i, name := range c.PassEnv {
		if err := process.CheckEnvName(name); err != nil {
			return c, fmt.Errorf("config %s: pass_env[%d]: %v", path, i, err)
		}
	}
	for i, g := range c.TrustedExtensions {
		if err := checkGrant(g); err != nil {
			return c, fmt.Errorf("config %s: trusted_extensions[%d]: %v", path, i, err)
		}
	}
	if err := checkSandboxMode("sandbox", c.Sandbox); err != nil {
		return c, fmt.Errorf("config %s: %v", path, err)
	}
	for name, ec := range c.Extensions {
		if err := checkSandboxMode("extensions."+name+".sandbox", ec.Sandbox); err != nil {
			return c, fmt.Errorf("config %s: %v", path, err)
		}
	}
	for i, name := range c.RequiredExtensions {
		if !requiredNameRE.MatchString(name) {
			return c, fmt.Errorf("config %s: required_extensions[%d]: %q is not an extension name (^[a-z][a-z0-9_-]{0,63}$)", path, i, name)
		}
	}
	for i, p := range c.DeniedTools {
		if !manifest.ValidToolPattern(p) {
			return c, fmt.Errorf("config %s: denied_tools[%d]: %q is not a tool pattern like \"extension/tool\" (* matches within a part)", path, i, p)
		}
	}
	for i, w := range c.TrustedWorkspaces {
		if !filepath.IsAbs(w) {
			return c, fmt.Errorf("config %s: trusted_workspaces[%d]: %q must be an absolute path", path, i, w)
		}
	}
	return c, nil
}

// checkSandboxMode accepts "", "enforce" and "off".
func checkSandboxMode(key, v string) error {
	switch v {
	case "", "enforce", "off":
		return nil
	}
	return fmt.Errorf("%s: %q is not a sandbox mode; want \"enforce\" or \"off\"", key, v)
}

// ParseEnvGrants splits OCTET_TRUSTED_EXTENSIONS (comma-separated grants).
func ParseEnvGrants(value string) ([]string, error) {
	var out []string
	for _, g := range strings.Split(value, ",") {
		g = strings.TrimSpace(g)
		if g == "" {
			continue
		}
		if err := checkGrant(g); err != nil {
			return nil, fmt.Errorf("OCTET_TRUSTED_EXTENSIONS: %v", err)
		}
		out = append(out, g)
	}
	return out, nil
}

// checkGrant accepts "name" or "name@/absolute/path/extension.toml".
func checkGrant(g string) error {
	name, path, hasPath := strings.Cut(g, "@")
	if name == "" {
		return fmt.Errorf("grant %q has no extension name", g)
	}
	if hasPath && (!filepath.IsAbs(path) || filepath.Base(path) != manifest.FileName) {
		return fmt.Errorf("grant %q must be name@/absolute/path/%s", g, manifest.FileName)
	}
	return nil
}

// ProjectConfigPath is where a workspace keeps its suggestions: <workspace>/.octet/config.toml.
func ProjectConfigPath(workspace string) string {
	return filepath.Join(workspace, ".octet", "config.toml")
}

// LoadProjectConfig reads a trusted workspace's config. A project may suggest
// enabled_extensions and add required_extensions and denied_tools (a requirement only ever
// stops startup and a denial only narrows the catalog: neither grants anything), but can never grant trust or host variables: trusted_extensions,
// trusted_workspaces and pass_env there are dropped and reported in the returned warnings.
func LoadProjectConfig(path string) (Config, []string, error) {
	c, err := LoadConfig(path)
	if err != nil {
		return Config{}, nil, err
	}
	var warnings []string
	if len(c.TrustedExtensions) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: trusted_extensions ignored; a project config cannot grant trust", path))
	}
	if len(c.TrustedWorkspaces) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: trusted_workspaces ignored; a project cannot trust workspaces", path))
	}
	if len(c.PassEnv) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: pass_env ignored; only the user config grants host variables", path))
	}
	// A workspace may set settings (MergeSettings puts them over the user's), never an
	// extension's sandbox.
	var exts map[string]ExtensionConfig
	for name, ec := range c.Extensions {
		if ec.Sandbox != "" {
			warnings = append(warnings, fmt.Sprintf("%s: extensions.%s.sandbox ignored; only the user config sets it", path, name))
		}
		if len(ec.Settings) > 0 {
			if exts == nil {
				exts = map[string]ExtensionConfig{}
			}
			exts[name] = ExtensionConfig{Settings: ec.Settings}
		}
	}
	return Config{EnabledExtensions: c.EnabledExtensions, RequiredExtensions: c.RequiredExtensions, DeniedTools: c.DeniedTools, Extensions: exts}, warnings, nil
}

// MergeSettings is every extension's settings with the workspace's over the user's, key by
// top-level key (a workspace that sets one key keeps the user's others).
func MergeSettings(user, workspace Config) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, c := range []Config{user, workspace} {
		for name, ec := range c.Extensions {
			if len(ec.Settings) == 0 {
				continue
			}
			if out[name] == nil {
				out[name] = map[string]any{}
			}
			for k, v := range ec.Settings {
				out[name][k] = v
			}
		}
	}
	return out
}
