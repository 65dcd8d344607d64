package manifest_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/manifest"
)

func TestWidened(t *testing.T) {
	base := manifest.Capabilities{Filesystem: "none", Network: true, Connect: []string{"api.example.com:443"},
		Read: []string{"data"}, Secrets: []string{"TOKEN"}, Budgets: manifest.Budgets{MemoryMB: 64}}
	cases := []struct {
		name string
		edit func(c *manifest.Capabilities)
		want string // "" = not widened
	}{
		{"same", func(c *manifest.Capabilities) {}, ""},
		{"narrower", func(c *manifest.Capabilities) { c.Read = nil; c.Network = false; c.Connect = nil }, ""},
		{"filesystem", func(c *manifest.Capabilities) { c.Filesystem = "workspace" }, "filesystem none → workspace"},
		{"default filesystem", func(c *manifest.Capabilities) { c.Filesystem = "" }, "filesystem none → workspace"},
		{"unrestricted", func(c *manifest.Capabilities) { c.Filesystem = "unrestricted" }, "filesystem none → unrestricted"},
		{"process", func(c *manifest.Capabilities) { c.Process = true }, "process false → true"},
		{"port", func(c *manifest.Capabilities) { c.Connect = append(c.Connect, "evil.example:22") }, "connect + evil.example:22"},
		{"any destination", func(c *manifest.Capabilities) { c.Connect = nil }, "→ any destination"},
		{"read", func(c *manifest.Capabilities) { c.Read = append(c.Read, "/etc") }, "read + /etc"},
		{"write", func(c *manifest.Capabilities) { c.Write = []string{"~/"} }, "write + ~/"},
		{"secret", func(c *manifest.Capabilities) { c.Secrets = append(c.Secrets, "OTHER") }, "secrets + OTHER"},
		{"budget raised", func(c *manifest.Capabilities) { c.Budgets.MemoryMB = 128 }, "budgets.memory_mb 64 → 128"},
		{"budget dropped", func(c *manifest.Capabilities) { c.Budgets.MemoryMB = 0 }, "budgets.memory_mb 64 → host default"},
	}
	for _, tc := range cases {
		next := base
		next.Read = append([]string{}, base.Read...)
		next.Connect = append([]string{}, base.Connect...)
		next.Secrets = append([]string{}, base.Secrets...)
		tc.edit(&next)
		got := strings.Join(manifest.Widened(base, next), "; ")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: Widened = %q, want %q", tc.name, got, tc.want)
		}
	}
	// Network off to on is a widening even with a list.
	if got := manifest.Widened(manifest.Capabilities{}, manifest.Capabilities{Network: true, Connect: []string{"h:1"}}); len(got) == 0 {
		t.Error("network false → true not reported")
	}
}
