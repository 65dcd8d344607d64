package target

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ViaMCPGo says how MCP targets are driven: the official MCP Go SDK client over stdio.
const ViaMCPGo = "MCP Go SDK client"

// mcpProtocolVersion pins the handshake every MCP server here speaks, so each peer
// gets the same initialize exchange (the Go client would otherwise try the newer
// server/discover first, which only the Go server answers).
const mcpProtocolVersion = "2025-11-25"

// MCPStdio returns a Start function for an MCP server started as name args...
func MCPStdio(name string, args []string, dir string, env []string) func(ctx context.Context) (Session, error) {
	return func(ctx context.Context) (Session, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(BaseEnv(), env...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		client := mcp.NewClient(&mcp.Implementation{Name: "octet-bench", Version: "0.1.0"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second},
			&mcp.ClientSessionOptions{ProtocolVersion: mcpProtocolVersion})
		if err != nil {
			return nil, fmt.Errorf("MCP connect to %s: %w", name, err)
		}
		return &mcpSession{cmd: cmd, cs: cs}, nil
	}
}

type mcpSession struct {
	cmd *exec.Cmd
	cs  *mcp.ClientSession
}

func (s *mcpSession) Echo(ctx context.Context) error {
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"value": EchoValue}})
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("MCP echo returned a tool error: %v", res.Content)
	}
	if m, ok := res.StructuredContent.(map[string]any); !ok || m["value"] != EchoValue {
		return fmt.Errorf("MCP echo answered structured content %v without the value", res.StructuredContent)
	}
	return nil
}

func (s *mcpSession) Crash(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "crash", Arguments: map[string]any{}})
	took := time.Since(start)
	if err == nil {
		return 0, errors.New("MCP crash tool answered instead of exiting")
	}
	return took, nil
}

func (s *mcpSession) PID() int { return s.cmd.Process.Pid }

func (s *mcpSession) Close() error {
	err := s.cs.Close()
	if s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	}
	return err
}
