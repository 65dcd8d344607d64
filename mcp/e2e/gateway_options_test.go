package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGatewayInputOptionsAsEnum: an extension's input request with options reaches the
// MCP client (the MCP Go SDK, which checks the form schema) as a string enum of the
// options' values with their labels as enumNames, so the client offers a choice; the chosen
// value comes back; with free text allowed the schema is a plain string naming the
// options; an answer outside the options (free text not allowed) comes back null.
func TestGatewayInputOptionsAsEnum(t *testing.T) {
	needKit(t)
	script := filepath.Join(t.TempDir(), "gateway.toml")
	write(t, script, []byte(gatewayScript))
	var mu sync.Mutex
	var schemas []string
	answer := "dev"
	opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		defer mu.Unlock()
		schemas = append(schemas, js(r.Params.RequestedSchema))
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"value": answer}}, nil
	}}
	cmd := exec.Command(filepath.Join(bin, "octet-mcp-gateway"), "--script", script, "--workspace", t.TempDir(), exampleDir("go", "conformance-fixture"))
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "octet-e2e", Version: "1"}, opts).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	c := &client{cs: cs}
	options := []map[string]any{{"value": "main", "label": "Main"}, {"value": "dev", "label": "Dev", "description": "unstable"}}
	ask := func(free bool, reply string) string {
		t.Helper()
		mu.Lock()
		answer = reply
		mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		args := map[string]any{"kind": "input", "prompt": "Branch?", "options": options}
		if free {
			args["allow_free_text"] = true
		}
		r, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return js(r.StructuredContent)
	}
	if got := ask(false, "dev"); !strings.Contains(got, `"answer":"dev"`) {
		t.Errorf("chosen option: %s", got)
	}
	if got := ask(false, "feature"); !strings.Contains(got, `"answer":null`) {
		t.Errorf("an answer outside the options: %s; want null", got)
	}
	if got := ask(true, "feature"); !strings.Contains(got, `"answer":"feature"`) {
		t.Errorf("free text allowed: %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(schemas) != 3 {
		t.Fatalf("%d elicitations", len(schemas))
	}
	for _, want := range []string{`"enum":["main","dev"]`, `"enumNames":["Main","Dev"]`} {
		if !strings.Contains(schemas[0], want) {
			t.Errorf("options schema %s lacks %s", schemas[0], want)
		}
	}
	if strings.Contains(schemas[2], `"enum"`) || !strings.Contains(schemas[2], "main (Main), dev (Dev), or any other text") {
		t.Errorf("free-text schema %s", schemas[2])
	}
}
