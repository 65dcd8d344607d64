package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ServerStatus is one server as mcp_status reports it.
type ServerStatus struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"` // "stdio" or "http"
	State     State    `json:"state"`
	Class     string   `json:"class,omitempty"`  // why a refused server was refused
	Detail    string   `json:"detail,omitempty"` // the last problem
	Restarts  int      `json:"restarts"`
	Tools     []string `json:"tools"` // published octet names, sorted
	// Withheld are the tools of the server's last list that are not published, each
	// with the JSON pointer of its fault; the others are.
	Withheld []Withheld `json:"withheld,omitempty"`
	// DroppedLogs counts the server's log notifications dropped over the rate limit
	// (a flooding server); its calls and tools are unaffected.
	DroppedLogs int64 `json:"dropped_logs,omitempty"`
}

// Status reports every server, in name order.
func (b *Bridge) Status() []ServerStatus {
	out := make([]ServerStatus, 0, len(b.order))
	for _, name := range b.order {
		u := b.servers[name]
		u.mu.Lock()
		s := ServerStatus{Name: name, Transport: "stdio", State: u.state, Class: u.class, Detail: u.detail, Restarts: u.restarts, Tools: []string{}, Withheld: u.withheld, DroppedLogs: u.dropped.Load()}
		for n := range u.tools {
			s.Tools = append(s.Tools, n)
		}
		u.mu.Unlock()
		if u.cfg.URL != "" {
			s.Transport = "http"
		}
		sort.Strings(s.Tools)
		out = append(out, s)
	}
	return out
}

type statusArgs struct {
	Wait        bool  `json:"wait,omitempty" jsonschema:"description=Wait until no server is starting or restarting (and the minimums below hold)"`
	MinRevision int64 `json:"min_revision,omitempty" jsonschema:"minimum=0,description=With wait: also until the bridge's catalog revision is at least this"`
	MinRestarts int   `json:"min_restarts,omitempty" jsonschema:"minimum=0,description=With wait: also until the servers restarted at least this often in all"`
	TimeoutMS   int   `json:"timeout_ms,omitempty" jsonschema:"minimum=0,maximum=120000,description=Bound of the wait (default 30000)"`
}

type connectArgs struct {
	Server string `json:"server" jsonschema:"description=A configured server name"`
}

// registerOwn adds the bridge's bootstrap tools and its status surface.
func (b *Bridge) registerOwn() {
	status := octet.Tool(b.ext, octet.ToolSpec{Name: "mcp_status", Description: "List the bridged MCP servers: transport, state, restarts and published tools. wait=true first waits until every started server has settled."},
		func(ctx context.Context, a statusArgs) (octet.Result, error) {
			if a.Wait {
				d := 30 * time.Second
				if a.TimeoutMS > 0 {
					d = time.Duration(a.TimeoutMS) * time.Millisecond
				}
				b.waitFor(ctx, d, func() bool { return b.settledWith(a.MinRevision, a.MinRestarts) })
			}
			return b.statusResult(), nil
		})
	connect := octet.Tool(b.ext, octet.ToolSpec{Name: "mcp_connect", Description: "Start (or restart) a configured MCP server; a server with secret_env gets its secrets from the host's broker in this call."},
		func(ctx context.Context, a connectArgs) (octet.Result, error) {
			u := b.servers[a.Server]
			if u == nil {
				// Any string fits the schema (servers come from the configuration, not the
				// manifest), so a name that is not configured is the tool's error, not -32602.
				return octet.Errorf("no MCP server %q is configured (configured: %s)", a.Server, strings.Join(b.order, ", ")), nil
			}
			var env []string
			for _, k := range sortedKeys(u.cfg.SecretEnv) {
				v, err := b.ext.Secrets.Get(ctx, protocol.SecretName(u.cfg.SecretEnv[k]))
				if err != nil {
					return octet.Result{}, err
				}
				env = append(env, k+"="+v.Value)
			}
			u.start(b.ctx, env)
			b.waitOne(ctx, u, u.cfg.handshake+catalogTimeout)
			return b.statusResult(), nil
		})
	b.ext.Status("status", func(context.Context, json.RawMessage) (octet.StatusResult, error) {
		var parts []string
		for _, s := range b.Status() {
			parts = append(parts, fmt.Sprintf("%s %s (%d tools)", s.Name, s.State, len(s.Tools)))
		}
		if len(parts) == 0 {
			parts = []string{"no MCP servers configured"}
		}
		return octet.StatusResult{Text: "MCP: " + strings.Join(parts, ", ")}, nil
	})
	b.own = []*octet.ToolDef{status, connect}
}

func (b *Bridge) statusResult() octet.Result {
	st := b.Status()
	out := map[string]any{"catalog_revision": b.ext.Catalog.Revision(), "servers": st}
	raw, _ := json.Marshal(out)
	return octet.Text(string(raw)).WithStructured(out)
}

// settledWith: no server is starting or restarting, the catalog revision is at least
// rev and the servers restarted at least restarts times.
func (b *Bridge) settledWith(rev int64, restarts int) bool {
	n := 0
	for _, s := range b.Status() {
		if s.State == StateStarting || s.State == StateRestarting {
			return false
		}
		n += s.Restarts
	}
	return b.ext.Catalog.Revision() >= rev && n >= restarts
}

// waitFor waits until ok holds, re-checking on every state change, for at most d.
func (b *Bridge) waitFor(ctx context.Context, d time.Duration, ok func() bool) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		b.changeMu.Lock()
		ch := b.change
		b.changeMu.Unlock()
		if ok() {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (b *Bridge) waitOne(ctx context.Context, u *upstream, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	u.mu.Lock()
	ch := u.settled
	u.mu.Unlock()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
