package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// An extension may send tools/register the moment it has answered initialize, even in the
// same write. The host holds such a request until the generation is installed and serves
// it then; it must not refuse it with -32002 (the answer not yet checked) or as "no
// longer current" (checked, not yet installed). The test holds the host just before it
// installs the generation until the early request has either been answered (refused:
// the race) or started waiting for the install, so it decides the race every time
// instead of hoping to hit it.
func TestRegisterWrittenWithTheInitializeAnswer(t *testing.T) {
	const name = "earlyreg"
	base := t.TempDir()
	dir := testext.Write(t, filepath.Join(base, "exts"), testext.Ext{Name: name, Tools: []string{"early"},
		Args: []string{"-feature", "dynamic_tools", "-register-early", "late"}})
	settled := make(chan struct{}, 2)
	host.SetLifecycleHooks(t,
		func(ext string) {
			if ext == name {
				<-settled
			}
		},
		func(ext string) {
			if ext == name {
				settled <- struct{}{}
			}
		})
	ctx := context.Background()
	h, err := reference.Open(ctx, reference.Options{Host: host.Options{
		StateDir: filepath.Join(base, "state"), Workspace: base, StartTimeout: 10 * time.Second, TermGrace: 300 * time.Millisecond,
		OnFrame: func(ext string, _ int64, d jsonrpc.Direction, frame []byte) {
			if ext == name && d == jsonrpc.Outbound && bytes.Contains(frame, []byte(`"id":"fx:early"`)) {
				settled <- struct{}{}
			}
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ext, err := h.StartDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := ext.CallTool(ctx, "early", nil)
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Result *struct {
			Revision int64
			Tools    []string
		}
		Error json.RawMessage
	}
	frame := text(t, raw)
	if err := json.Unmarshal([]byte(frame), &answer); err != nil || answer.Result == nil {
		t.Fatalf("the tools/register written with the initialize answer was answered %s (%v); want its catalog revision", frame, err)
	}
	if answer.Result.Revision != 1 || len(answer.Result.Tools) != 2 {
		t.Errorf("answer %s: want revision 1 holding early and late", frame)
	}
	if got, err := call(t, h.Host, "late", `{}`); err != nil || got != "late tool called" {
		t.Errorf("late tool: %q, %v", got, err)
	}
}
