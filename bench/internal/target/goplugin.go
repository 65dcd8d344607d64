package target

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/octet-kit/octet/bench/peers/goplugin/shared"
)

// ViaGoPlugin says how the go-plugin peer is driven: go-plugin's own gRPC client.
const ViaGoPlugin = "go-plugin gRPC client"

// GoPluginStart returns a Start function for the go-plugin peer binary.
func GoPluginStart(binary string) func(ctx context.Context) (Session, error) {
	return func(ctx context.Context) (Session, error) {
		client := plugin.NewClient(&plugin.ClientConfig{
			HandshakeConfig:  shared.Handshake,
			Plugins:          plugin.PluginSet{shared.PluginName: &shared.Plugin{}},
			Cmd:              exec.Command(binary),
			AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
			Logger:           hclog.NewNullLogger(),
		})
		rpc, err := client.Client()
		if err != nil {
			client.Kill()
			return nil, fmt.Errorf("go-plugin start %s: %w", binary, err)
		}
		raw, err := rpc.Dispense(shared.PluginName)
		if err != nil {
			client.Kill()
			return nil, fmt.Errorf("go-plugin dispense: %w", err)
		}
		return &pluginSession{client: client, tools: raw.(shared.Tools)}, nil
	}
}

type pluginSession struct {
	client *plugin.Client
	tools  shared.Tools
}

var pluginEcho = []byte(`{"name":"echo","arguments":{"value":"` + EchoValue + `"}}`)

func (s *pluginSession) Echo(ctx context.Context) error {
	out, err := s.tools.Call(ctx, pluginEcho)
	if err != nil {
		return err
	}
	if !bytes.Contains(out, []byte(EchoValue)) {
		return fmt.Errorf("go-plugin echo answered %s without the value", truncate(out))
	}
	return nil
}

func (s *pluginSession) Crash(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	_, err := s.tools.Call(ctx, []byte(`{"name":"crash","arguments":{}}`))
	took := time.Since(start)
	if err == nil {
		return 0, errors.New("go-plugin crash tool answered instead of exiting")
	}
	return took, nil
}

func (s *pluginSession) PID() int {
	if rc := s.client.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}

func (s *pluginSession) Close() error {
	s.client.Kill()
	return nil
}
