package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	mcpjsonrpc "github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/mcp/bridge"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// call is one MCP tools/call being served.
type call struct {
	ctx   context.Context
	req   *mcp.CallToolRequest
	token any // the client's progress token, nil when it asked for none

	mu    sync.Mutex
	key   callKey // the host request, once its frame was seen (set on the host's writer)
	steps float64 // progress sent so far (MCP progress must increase)
	// unsent counts the call's $/progress frames the host has read but not yet handed to
	// onEvent (the host handles notifications off its reader, so the result can overtake
	// them); drained is closed when it falls to zero while the result waits.
	unsent  int
	drained chan struct{}
}

// progressDrain bounds how long a result waits for progress read before it: a progress
// notification the host refuses is never forwarded, so the wait cannot be unbounded.
const progressDrain = time.Second

// progressRead counts a $/progress frame of this call, in the host's read order.
func (c *call) progressRead() {
	c.mu.Lock()
	c.unsent++
	c.mu.Unlock()
}

// progressDone counts one of them handled (forwarded or not).
func (c *call) progressDone() {
	c.mu.Lock()
	if c.unsent > 0 {
		c.unsent--
	}
	if c.unsent == 0 && c.drained != nil {
		close(c.drained)
		c.drained = nil
	}
	c.mu.Unlock()
}

// waitProgress returns once every progress frame read before the result was forwarded,
// so a client sees a call's progress before its result, as the extension sent them.
func (c *call) waitProgress(ctx context.Context) {
	c.mu.Lock()
	if c.unsent == 0 {
		c.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	c.drained = ch
	c.mu.Unlock()
	t := time.NewTimer(progressDrain)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
}

// handler serves MCP tool name: the octet call is pinned to the catalog entry the
// client's tools/list showed; the MCP request's cancellation cancels it ($/cancel).
func (g *Gateway) handler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		g.mu.Lock()
		entry, ok := g.served[name]
		g.mu.Unlock()
		if !ok {
			return nil, &mcpjsonrpc.Error{Code: mcpjsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q (withdrawn)", name)}
		}
		args := json.RawMessage(`{}`)
		if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
			args = raw
		}
		c := &call{ctx: ctx, req: req, token: req.Params.GetProgressToken()}
		id := fmt.Sprintf("mcp-%d", g.seq.Add(1))
		g.callIDs.Store(id, c)
		defer func() {
			g.callIDs.Delete(id)
			c.mu.Lock()
			key := c.key
			c.mu.Unlock()
			if key != (callKey{}) {
				g.calls.Delete(key)
			}
		}()
		raw, err := g.h.CallPlanned(ctx, entry, args, id)
		if c.token != nil {
			c.waitProgress(ctx)
		}
		// A tool call may change a catalog (dynamic tools): look before answering, so a
		// client that lists right after the result sees the change.
		g.sync()
		if err != nil {
			return toolError(ctx, err, sep1303(req.Session))
		}
		return g.result(ctx, raw)
	}
}

// sep1303Version is the first MCP revision in which arguments that fail the tool's
// inputSchema are a tool execution error (a result with isError, so the model can
// correct itself), not a JSON-RPC -32602 protocol error (SEP-1303).
const sep1303Version = "2025-11-25"

// sep1303 reports whether the session negotiated sep1303Version or later. The server
// answers initialize with the client's version when it supports it, else with
// sep1303Version (the newest an initialize negotiates); a session without initialize
// (stateless HTTP) speaks the newest.
func sep1303(ss *mcp.ServerSession) bool {
	if ss == nil {
		return true
	}
	p := ss.InitializeParams()
	if p == nil || !slices.Contains(mcp.SupportedProtocolVersions(), p.ProtocolVersion) {
		return true
	}
	return p.ProtocolVersion >= sep1303Version
}

// toolError maps a failed octet call: an extension's JSON-RPC error keeps its code,
// message and data; arguments the host refused are a tool error result naming the
// pointer under SEP-1303 (asIsError), invalid params before it; a tool the host does
// not know is invalid params; a timeout, crash or unavailable extension is a tool error
// result (the call ran, or could not, and the model should hear why).
func toolError(ctx context.Context, err error, asIsError bool) (*mcp.CallToolResult, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		var data json.RawMessage
		if we.Data != nil {
			data, _ = json.Marshal(we.Data)
		}
		return nil, &mcpjsonrpc.Error{Code: we.Code, Message: we.Message, Data: data}
	}
	var ae *host.ArgumentsError
	if errors.As(err, &ae) && asIsError {
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		res.SetError(err)
		return res, nil
	}
	var ue *host.UnknownToolError
	var se *host.StaleCatalogError
	if errors.As(err, &ae) || errors.As(err, &ue) || errors.As(err, &se) {
		return nil, &mcpjsonrpc.Error{Code: mcpjsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
	res.SetError(err)
	return res, nil
}

// errorMarker is the structured content octet-mcp gives an MCP tool error (see
// bridge.ErrorMarker), removed again here.
var errorMarker = []byte(`{"` + bridge.ErrorMarker + `":true}`)

// octetResult is a tool result of API 0.2/0.4.
type octetResult struct {
	Content []struct {
		Type       string `json:"type"`
		Text       string `json:"text"`
		ArtifactID string `json:"artifact_id"`
		MIMEType   string `json:"mime_type"`
	} `json:"content"`
	IsError           bool            `json:"is_error"`
	StructuredContent json.RawMessage `json:"structured_content"`
	Metadata          json.RawMessage `json:"metadata"`
}

// result maps an octet result to MCP: text parts to text, image and audio parts to
// image and audio content with the artifact's bytes, structured_content to
// structuredContent, is_error to isError, metadata to _meta["octet/metadata"].
func (g *Gateway) result(ctx context.Context, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var r octetResult
	if err := json.Unmarshal(raw, &r); err != nil {
		// API 0.1: content is one string.
		var legacy struct {
			Content string `json:"content"`
			IsError bool   `json:"is_error"`
		}
		if json.Unmarshal(raw, &legacy) != nil {
			return nil, fmt.Errorf("octet result: %v", err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: legacy.Content}}, IsError: legacy.IsError}, nil
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{}, IsError: r.IsError}
	for _, p := range r.Content {
		switch p.Type {
		case "text":
			out.Content = append(out.Content, &mcp.TextContent{Text: p.Text})
		case "image", "audio":
			data, err := g.artifact(ctx, p.ArtifactID)
			if err != nil {
				out.Content = append(out.Content, &mcp.TextContent{Text: fmt.Sprintf("[%s %s: %v]", p.Type, p.ArtifactID, err)})
				continue
			}
			if p.Type == "image" {
				out.Content = append(out.Content, &mcp.ImageContent{Data: data, MIMEType: p.MIMEType})
			} else {
				out.Content = append(out.Content, &mcp.AudioContent{Data: data, MIMEType: p.MIMEType})
			}
		}
	}
	if len(r.StructuredContent) > 0 && !(r.IsError && bytes.Equal(r.StructuredContent, errorMarker)) {
		out.StructuredContent = r.StructuredContent
	}
	if len(r.Metadata) > 0 {
		var m any
		if json.Unmarshal(r.Metadata, &m) == nil {
			out.Meta = mcp.Meta{"octet/metadata": m}
		}
	}
	return out, nil
}

// artifact reads a stored artifact's bytes.
func (g *Gateway) artifact(ctx context.Context, id string) ([]byte, error) {
	a, ok, err := g.h.Store().GetArtifact(ctx, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("artifact not found")
	}
	return os.ReadFile(g.h.Store().BlobPath(a.SHA256))
}

// onEvent forwards a call's octet progress as MCP progress to the client that asked
// for it (a progress token): status events carry message, current and total; output
// and decoration events their text as the message.
func (g *Gateway) onEvent(ev services.Event) {
	if ev.Kind != services.EventProgress {
		return
	}
	p, ok := ev.Payload.(services.Progress)
	if !ok {
		return
	}
	id, _ := json.Marshal(p.Parent)
	v, ok := g.calls.Load(callKey{ext: ev.Extension, id: string(id)})
	if !ok {
		return
	}
	c := v.(*call)
	if c.token == nil {
		return
	}
	defer c.progressDone()
	var e struct {
		Type    string   `json:"type"`
		Message string   `json:"message"`
		Current *float64 `json:"current"`
		Total   *float64 `json:"total"`
		Data    string   `json:"data"`
		Label   string   `json:"label"`
		Detail  string   `json:"detail"`
	}
	if json.Unmarshal(p.Event, &e) != nil {
		return
	}
	n := &mcp.ProgressNotificationParams{ProgressToken: c.token, Message: e.Message}
	switch e.Type {
	case "output":
		n.Message = e.Data
	case "decoration":
		n.Message = e.Label + " " + e.Detail
	}
	c.mu.Lock()
	next := c.steps + 1
	if e.Current != nil && *e.Current > c.steps {
		next = *e.Current
	}
	c.steps, n.Progress = next, next
	c.mu.Unlock()
	if e.Total != nil {
		n.Total = *e.Total
	}
	_ = c.req.Session.NotifyProgress(c.ctx, n)
}
