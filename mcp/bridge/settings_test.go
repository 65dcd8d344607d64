package bridge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
)

func refusal(t *testing.T, err error) string {
	t.Helper()
	var r *octet.SettingsRefusal
	if !errors.As(err, &r) {
		t.Fatalf("err %v, want a settings refusal", err)
	}
	return strings.Join(r.Reasons, "; ")
}

// TestServersFromSettings: the settings' servers are checked as the file's are, a dry run
// takes nothing, the first configure adopts and starts them, the same servers again are
// accepted, a different set is refused (the servers in force stay), and servers from the
// configuration file (the fallback) conflict with servers in the settings.
func TestServersFromSettings(t *testing.T) {
	b := New(&Config{Servers: map[string]ServerConfig{}}, octet.Options{})
	t.Cleanup(b.Stop)
	bad := settings{Servers: json.RawMessage(`{"web":{"url":"http://example.com/mcp"}}`)}
	if got := refusal(t, b.configureServers(bad, false)); !strings.Contains(got, `settings.servers: servers.web.url: "http://example.com/mcp": host "example.com" is not loopback`) {
		t.Fatalf("non-loopback url: %s", got)
	}
	// Port 1 on loopback: nothing listens, so the server fails its handshake (no network).
	good := settings{Servers: json.RawMessage(`{"web":{"url":"http://127.0.0.1:1/mcp","handshake_timeout":"2s"}}`)}
	if err := b.configureServers(good, true); err != nil || len(b.order) != 0 {
		t.Fatalf("dry run: %v, servers %v", err, b.order)
	}
	if err := b.configureServers(good, false); err != nil || strings.Join(b.order, ",") != "web" || b.servers["web"] == nil {
		t.Fatalf("adopt: %v, servers %v", err, b.order)
	}
	if err := b.configureServers(good, false); err != nil {
		t.Fatalf("the same servers again: %v", err)
	}
	other := settings{Servers: json.RawMessage(`{"other":{"url":"http://127.0.0.1:2/mcp"}}`)}
	if got := refusal(t, b.configureServers(other, false)); !strings.Contains(got, "reload octet-mcp") || strings.Join(b.order, ",") != "web" {
		t.Fatalf("changed servers: %s, servers %v", got, b.order)
	}
	if err := b.configureServers(settings{}, false); err != nil {
		t.Fatalf("no servers in the settings: %v", err)
	}

	fromFile := New(&Config{Servers: map[string]ServerConfig{"f": {URL: "http://127.0.0.1:3/mcp"}}}, octet.Options{})
	t.Cleanup(fromFile.Stop)
	if got := refusal(t, fromFile.configureServers(good, false)); !strings.Contains(got, "both by the settings and by the configuration file") {
		t.Fatalf("file and settings: %s", got)
	}
}
