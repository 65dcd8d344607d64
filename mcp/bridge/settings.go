package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	octet "github.com/octet-kit/octet/sdk-go"
)

// settings are octet-mcp's declared settings (extension.toml [settings]): the servers, in
// the configuration file's shape. The operator sets them in the host config
// ([extensions.octet-mcp.settings.servers.NAME]); the host checks them against the schema,
// the bridge checks them again with ParseConfig (loopback URLs, names) and refuses with
// the same messages as for the file.
type settings struct {
	Servers json.RawMessage `json:"servers"`
}

// settingsState records where the servers came from: the configuration file (named by
// OCTET_MCP_CONFIG, or mcp.json), which is the fallback, or the settings.
type settingsState struct {
	mu       sync.Mutex
	fromFile bool    // the file named servers: they started before the handshake
	adopted  *Config // the servers the settings named, once taken
}

// registerSettings declares the settings handler. Servers named by the settings start
// when the first configure arrives, before the host installs the bridge; a later change to
// them is refused (the settings in force stay) because a server set is fixed per process:
// reload the extension to apply it.
func (b *Bridge) registerSettings() {
	b.settings.fromFile = len(b.cfg.Servers) > 0
	octet.OnConfigure(b.ext, func(ctx context.Context, s settings, info octet.ConfigureInfo) error {
		return b.configureServers(s, info.DryRun)
	})
}

func (b *Bridge) configureServers(s settings, dryRun bool) error {
	if len(s.Servers) == 0 || string(s.Servers) == "{}" || string(s.Servers) == "null" {
		return nil // no servers in the settings: the file (the fallback) stays in force
	}
	cfg, err := ParseConfig(append(append([]byte(`{"servers":`), s.Servers...), '}'))
	if err != nil {
		return octet.RefuseSettings("settings.servers: " + err.Error())
	}
	st := &b.settings
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.fromFile:
		return octet.RefuseSettings(fmt.Sprintf("servers are configured both by the settings and by the configuration file (%d servers); remove one", len(b.cfg.Servers)))
	case st.adopted != nil && reflect.DeepEqual(st.adopted.Servers, cfg.Servers):
		return nil
	case st.adopted != nil:
		return octet.RefuseSettings("the servers changed: a server set is fixed per process; reload octet-mcp to apply it")
	case dryRun:
		return nil
	}
	st.adopted = cfg
	for _, name := range cfg.Names() {
		b.servers[name] = newUpstream(b, name, cfg.Servers[name])
		b.order = append(b.order, name)
		b.cfg.Servers[name] = cfg.Servers[name]
	}
	b.startAll()
	return nil
}
