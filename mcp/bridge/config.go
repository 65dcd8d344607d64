package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"
)

// Config is the bridge's configuration: the MCP servers it supervises. It is read from
// the file named by OCTET_MCP_CONFIG (pass it with the host's pass_env grant), else from
// $OCTET_WORKSPACE/.octet/mcp.json, else from mcp.json beside extension.toml.
type Config struct {
	// Servers maps a server name (the prefix of its tools' octet names) to how to reach it.
	Servers map[string]ServerConfig `json:"servers"`
}

// ServerConfig is one MCP server: a stdio command, or a streamable HTTP endpoint on
// loopback. Exactly one of Command and URL is set.
type ServerConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// SecretEnv maps an environment variable of the server to a secret name the host's
	// broker holds (and the manifest's capabilities.secrets allows). A server with
	// secrets starts on the first mcp_connect call, the request the broker answers under.
	SecretEnv map[string]string `json:"secret_env,omitempty"`
	// Dir is the server's working directory (default: the workspace).
	Dir string `json:"dir,omitempty"`
	// URL is a streamable HTTP MCP endpoint; only loopback hosts are accepted.
	URL string `json:"url,omitempty"`
	// ProtocolVersion is the MCP protocol version offered (default DefaultProtocolVersion).
	ProtocolVersion string `json:"protocol_version,omitempty"`
	// HandshakeTimeout bounds start-up and initialize, e.g. "10s" (default 20s).
	HandshakeTimeout string `json:"handshake_timeout,omitempty"`
	// Sandbox confines a stdio server to what it names (sandbox.go); nil runs it unconfined.
	Sandbox *ServerSandbox `json:"sandbox,omitempty"`

	handshake time.Duration
}

// DefaultProtocolVersion is the MCP revision the bridge offers unless a server's
// protocol_version says otherwise: the last one every server here speaks (the Go SDK
// client would otherwise open with the newer discovery exchange older servers refuse).
const DefaultProtocolVersion = "2025-11-25"

// serverName is the pattern of a server name: it prefixes tool names, which octet limits
// to 64 characters of [A-Za-z0-9_-].
var serverName = regexp.MustCompile(`^[a-z][a-z0-9]{0,15}$`)

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var secretName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

// LoadConfig finds and parses the configuration (see Config).
func LoadConfig() (*Config, string, error) {
	var candidates []string
	if p := os.Getenv("OCTET_MCP_CONFIG"); p != "" {
		candidates = []string{p}
	} else {
		if w := os.Getenv("OCTET_WORKSPACE"); w != "" {
			candidates = append(candidates, filepath.Join(w, ".octet", "mcp.json"))
		}
		if d := os.Getenv("OCTET_EXTENSION_DIR"); d != "" {
			candidates = append(candidates, filepath.Join(d, "mcp.json"))
		}
	}
	for i, p := range candidates {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) && (i < len(candidates)-1 || os.Getenv("OCTET_MCP_CONFIG") == "") {
			continue
		}
		if err != nil {
			return nil, p, fmt.Errorf("octet-mcp: reading the configuration: %v", err)
		}
		c, err := ParseConfig(b)
		if err != nil {
			return nil, p, fmt.Errorf("octet-mcp: %s: %v", p, err)
		}
		return c, p, nil
	}
	return &Config{Servers: map[string]ServerConfig{}}, "", nil
}

// ParseConfig decodes and checks a configuration strictly: unknown fields, a bad server
// name, both or neither of command and url, a non-loopback url and bad environment or
// secret names are refused, each naming the server and field; every problem of the
// file is reported, not only the first.
func ParseConfig(b []byte) (*Config, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("not a valid configuration: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not a valid configuration: data after the JSON object")
	}
	if c.Servers == nil {
		c.Servers = map[string]ServerConfig{}
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	for _, name := range c.Names() {
		s := c.Servers[name]
		at := fmt.Sprintf("servers.%s", name)
		if !serverName.MatchString(name) {
			bad("%s: a server name must match %s (it prefixes the server's tool names)", at, serverName)
		}
		switch {
		case s.Command == "" && s.URL == "":
			bad("%s: needs command (stdio) or url (streamable HTTP)", at)
		case s.Command != "" && s.URL != "":
			bad("%s: has both command and url; choose one transport", at)
		case s.URL != "":
			if err := checkLoopback(s.URL); err != nil {
				bad("%s.url: %v", at, err)
			}
			if len(s.Args) > 0 || len(s.Env) > 0 || len(s.SecretEnv) > 0 || s.Dir != "" {
				bad("%s: args, env, secret_env and dir apply to a command, not a url", at)
			}
		}
		if err := s.Sandbox.check(at); err != nil {
			bad("%v", err)
		}
		for _, k := range sortedKeys(s.Env) {
			if !envName.MatchString(k) {
				bad("%s.env: %q is not an environment variable name", at, k)
			}
		}
		for _, k := range sortedKeys(s.SecretEnv) {
			v := s.SecretEnv[k]
			if !envName.MatchString(k) {
				bad("%s.secret_env: %q is not an environment variable name", at, k)
			}
			if !secretName.MatchString(v) {
				bad("%s.secret_env.%s: %q is not a secret name (%s)", at, k, v, secretName)
			}
		}
		s.handshake = 20 * time.Second
		if s.HandshakeTimeout != "" {
			d, err := time.ParseDuration(s.HandshakeTimeout)
			if err != nil || d <= 0 {
				bad("%s.handshake_timeout: %q is not a positive duration such as \"10s\"", at, s.HandshakeTimeout)
			}
			s.handshake = d
		}
		if s.ProtocolVersion == "" {
			s.ProtocolVersion = DefaultProtocolVersion
		}
		c.Servers[name] = s
	}
	if len(errs) > 0 {
		// Every problem at once, one a line, so an operator fixes the file in one pass.
		return nil, errors.Join(errs...)
	}
	return &c, nil
}

// Names returns the server names in order.
func (c *Config) Names() []string {
	names := make([]string, 0, len(c.Servers))
	for n := range c.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checkLoopback accepts an http(s) URL whose host is localhost or a loopback address:
// the bridge is a local hop, never a network client.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%q: scheme must be http or https", raw)
	}
	h := u.Hostname()
	if h == "localhost" {
		return nil
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%q: host %q is not loopback (127.0.0.0/8, ::1 or localhost)", raw, h)
}
