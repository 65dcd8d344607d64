// Package gateway is octet-mcp-gateway: it runs octet extensions in the reference host
// (host/reference) and serves their tools as one MCP server, so any MCP client can call
// an extension written with the Go, Python or TypeScript SDK.
//
// Files: gateway.go (the MCP server, catalog synchronisation), call.go (calls: progress,
// cancellation, results and errors), interact.go (octet confirmations and input as MCP
// elicitation).
package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/mcp/bridge"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Version is the gateway's version, the kit's.
const Version = host.OctetVersion

// Options configure a gateway.
type Options struct {
	// Host configures the reference host the extensions run in; StateDir is required.
	// The gateway adds its own frame and event taps (after any set here).
	Host reference.Options
	// Dirs are the extension directories to serve.
	Dirs []string
	// SyncInterval bounds how long a catalog change can go unnoticed when no frame
	// announced it (default 250 ms).
	SyncInterval time.Duration
}

// Gateway is a reference host plus the MCP server that serves its catalog.
type Gateway struct {
	h   *reference.Host
	srv *mcp.Server
	seq atomic.Int64 // call ids

	mu       sync.Mutex
	served   map[string]host.CatalogEntry // MCP tool name -> the octet entry it calls
	revision int64

	calls   sync.Map // callKey -> *call, by host request id
	callIDs sync.Map // call_id string -> *call, until its tool/call frame is seen
	poke    chan struct{}
	stop    chan struct{}
	stopped sync.WaitGroup
}

type callKey struct {
	ext string
	id  string
}

// Open starts the extensions of opts.Dirs and builds the MCP server with their tools.
func Open(ctx context.Context, opts Options) (*Gateway, error) {
	g := &Gateway{served: map[string]host.CatalogEntry{}, poke: make(chan struct{}, 1), stop: make(chan struct{})}
	ro := opts.Host
	nextFrame := ro.Host.OnFrame
	ro.Host.OnFrame = func(ext string, gen int64, dir jsonrpc.Direction, frame []byte) {
		g.onFrame(ext, dir, frame)
		if nextFrame != nil {
			nextFrame(ext, gen, dir, frame)
		}
	}
	nextEvents := ro.Events
	ro.Events = services.EventSinkFunc(func(ev services.Event) {
		g.onEvent(ev)
		if nextEvents != nil {
			nextEvents.Event(ev)
		}
	})
	ro.Asker = asker{g: g, next: ro.Asker}
	h, err := reference.Open(ctx, ro)
	if err != nil {
		return nil, err
	}
	g.h = h
	if _, err := h.StartDirs(ctx, opts.Dirs...); err != nil {
		h.Close()
		return nil, err
	}
	g.srv = mcp.NewServer(&mcp.Implementation{Name: "octet-mcp-gateway", Version: Version}, &mcp.ServerOptions{
		// Tools come and go with the extensions' live catalogs: say so from the start.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}, Logging: &mcp.LoggingCapabilities{}},
	})
	g.sync()
	every := opts.SyncInterval
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	g.stopped.Add(1)
	go g.watch(every)
	return g, nil
}

// Server is the MCP server; run it on any MCP transport (Serve does stdio).
func (g *Gateway) Server() *mcp.Server { return g.srv }

// Host is the reference host the extensions run in.
func (g *Gateway) Host() *reference.Host { return g.h }

// Serve serves MCP on t until the client disconnects or ctx ends.
func (g *Gateway) Serve(ctx context.Context, t mcp.Transport) error { return g.srv.Run(ctx, t) }

// Close stops the catalog watch and the extensions.
func (g *Gateway) Close() error {
	close(g.stop)
	g.stopped.Wait()
	return g.h.Close()
}

// watch re-synchronises the MCP tool list when a catalog mutation was seen on the wire,
// and every interval regardless (a crashed extension's tools leave without a frame).
func (g *Gateway) watch(every time.Duration) {
	defer g.stopped.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-g.stop:
			return
		case <-g.poke:
		case <-t.C:
		}
		g.sync()
	}
}

// sync makes the MCP server's tools the host catalog's: new and changed tools are added,
// vanished ones removed; the MCP SDK sends notifications/tools/list_changed for each
// change to every session.
func (g *Gateway) sync() {
	cat := g.h.Catalog()
	g.mu.Lock()
	defer g.mu.Unlock()
	if cat.Revision == g.revision && len(g.served) == len(cat.Tools) {
		return
	}
	g.revision = cat.Revision
	want := map[string]host.CatalogEntry{}
	for _, e := range cat.Tools {
		want[e.Tool.Name] = e
	}
	var gone []string
	for name := range g.served {
		if _, ok := want[name]; !ok {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		g.srv.RemoveTools(gone...)
		for _, n := range gone {
			delete(g.served, n)
		}
	}
	for name, e := range want {
		if have, ok := g.served[name]; ok && sameTool(have.Tool, e.Tool) {
			g.served[name] = e
			continue
		}
		g.served[name] = e
		g.srv.AddTool(mcpTool(e.Tool), g.handler(name))
	}
}

func sameTool(a, b host.ToolDefinition) bool {
	return a.Name == b.Name && a.Description == b.Description && bytes.Equal(a.Parameters, b.Parameters) && bytes.Equal(a.OutputSchema, b.OutputSchema)
}

// mcpTool is an octet tool definition as an MCP tool: name, description, parameters as
// inputSchema, output_schema as outputSchema, both with boolean subschemas written as
// objects (normalizeSchema).
func mcpTool(t host.ToolDefinition) *mcp.Tool {
	tool := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: normalizeSchema(t.Parameters)}
	if len(t.OutputSchema) > 0 {
		out := json.RawMessage(t.OutputSchema)
		if inner, ok := unwrapErrorMarker(t.OutputSchema); ok {
			out = inner
		}
		tool.OutputSchema = normalizeSchema(out)
	}
	return tool
}

// unwrapErrorMarker returns the MCP output schema of a tool octet-mcp bridged (an
// output_schema of exactly {"anyOf": [S, bridge.ErrorMarkerSchema()]}, maybe with
// $schema): S, with the $schema back in it and the $id the bridge gave it removed.
func unwrapErrorMarker(raw json.RawMessage) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	d, hasDialect := m["$schema"]
	if len(m) != 1 && !(len(m) == 2 && hasDialect) {
		return nil, false
	}
	var alts []map[string]any
	if json.Unmarshal(m["anyOf"], &alts) != nil || len(alts) != 2 {
		return nil, false
	}
	want, _ := json.Marshal(bridge.ErrorMarkerSchema())
	got, _ := json.Marshal(alts[1])
	if !bytes.Equal(want, got) {
		return nil, false
	}
	if alts[0]["$id"] == bridge.OutputResourceID {
		delete(alts[0], "$id")
	}
	if hasDialect {
		var dialect any
		_ = json.Unmarshal(d, &dialect)
		alts[0]["$schema"] = dialect
	}
	inner, err := json.Marshal(alts[0])
	return inner, err == nil
}

// onFrame notes catalog mutations (to re-synchronise) and the host request id of each
// tool/call the gateway sent (to route the call's progress and interactions).
func (g *Gateway) onFrame(ext string, dir jsonrpc.Direction, frame []byte) {
	switch {
	case dir == jsonrpc.Inbound && (bytes.Contains(frame, []byte(`"`+protocol.MethodToolsRegister+`"`)) || bytes.Contains(frame, []byte(`"`+protocol.MethodToolsUnregister+`"`)) ||
		bytes.Contains(frame, []byte(`"`+protocol.MethodToolsReplace+`"`))):
		select {
		case g.poke <- struct{}{}:
		default:
		}
	case dir == jsonrpc.Inbound && bytes.Contains(frame, []byte(`"`+protocol.MethodProgress+`"`)):
		var m struct {
			Params struct {
				Parent json.RawMessage `json:"parent_request_id"`
			} `json:"params"`
		}
		var id bytes.Buffer
		if json.Unmarshal(frame, &m) != nil || json.Compact(&id, m.Params.Parent) != nil {
			return
		}
		if v, ok := g.calls.Load(callKey{ext: ext, id: id.String()}); ok {
			if c := v.(*call); c.token != nil {
				c.progressRead()
			}
		}
	case dir == jsonrpc.Outbound && bytes.Contains(frame, []byte(`"`+protocol.MethodToolCall+`"`)):
		var m struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				CallID string `json:"call_id"`
			} `json:"params"`
		}
		if json.Unmarshal(frame, &m) != nil || m.Params.CallID == "" {
			return
		}
		if v, ok := g.callIDs.Load(m.Params.CallID); ok {
			c := v.(*call)
			key := callKey{ext: ext, id: string(m.ID)}
			c.mu.Lock()
			c.key = key
			c.mu.Unlock()
			g.calls.Store(key, c)
		}
	}
}
