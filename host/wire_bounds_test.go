package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/hostile"
	"github.com/octet-kit/octet/host/internal/memcap"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// wireAnswer sends frame to a host-side connection and returns the -32602 message its
// answer carries ("" for a result).
func wireAnswer(t *testing.T, frame []byte) string {
	code, msg := wireRefusal(t, frame)
	if code != 0 && code != protocol.CodeInvalidParams {
		t.Fatalf("answered %d, want -32602: %s", code, msg)
	}
	return msg
}

// wireRefusal sends frame to a host-side connection (the transport every extension's
// frames reach the host through) and returns the code and message of the error it is
// answered with (0 and "" for a result). Whatever it is, the connection is closed after.
func wireRefusal(t *testing.T, frame []byte) (int64, string) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := jsonrpc.NewConn(inR, outW, jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		return map[string]any{}, nil
	}})
	defer c.Close()
	go func() { _, _ = inW.Write(append(frame, '\n')) }()
	line, err := bufio.NewReaderSize(outR, 1<<20).ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Error *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	if resp.Error == nil {
		return 0, ""
	}
	return resp.Error.Code, resp.Error.Message
}

// A frame nested to MAX_JSON_DEPTH is served; one level past it is answered -32602 naming
// the bound and the byte; a frame 500,000 levels deep (1 MB, under the 1 MiB line cap) is
// refused alike within 16 MiB, measured in a capped child process.
func TestWireNestingBound(t *testing.T) {
	if got := wireAnswer(t, hostile.Frame(1, protocol.MaxJSONDepth)); got != "" {
		t.Fatalf("at the bound: %s", got)
	}
	if got := wireAnswer(t, hostile.Frame(1, protocol.MaxJSONDepth+1)); got != "invalid params: nesting deeper than 128 levels (MAX_JSON_DEPTH) at byte 215" {
		t.Fatalf("one past the bound: %q", got)
	}
	t.Run("500000", func(t *testing.T) {
		frame := hostile.Frame(1, 500_000)
		if len(frame) > protocol.MaxMessageBytes {
			t.Fatalf("frame of %d bytes is over the line cap", len(frame))
		}
		m := memcap.Run(t, 16<<20, func() string { return wireAnswer(t, frame) })
		t.Logf("allocated %d KiB, peak RSS %d MiB: %s", m.AllocBytes>>10, m.PeakRSS>>20, m.Result)
		if !strings.Contains(m.Result, "nesting deeper than 128 levels (MAX_JSON_DEPTH) at byte 215") {
			t.Fatalf("refusal %q", m.Result)
		}
	})
}
