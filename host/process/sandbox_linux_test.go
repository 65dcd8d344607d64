package process_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/host/sandbox"
)

// A kernel without the sandbox's mechanisms refuses a confined start as sandbox_unavailable,
// naming what is missing; the operator's opt-out (no Sandbox) still starts.
func TestStartFailsClosedWithoutTheSandbox(t *testing.T) {
	restore := sandbox.SetUnavailable("Landlock ABI 6 or later (the kernel offers ABI 3)")
	defer restore()
	spec := process.Spec{Name: "x", Dir: t.TempDir(), Command: "/bin/true", Workspace: t.TempDir(), APIVersion: "0.4",
		Sandbox: &sandbox.Request{Filesystem: "workspace"}}
	_, err := process.Start(spec)
	var se *process.StartError
	if !errors.As(err, &se) || se.Kind != process.KindSandbox || !strings.Contains(se.Message, "Landlock ABI 6 or later (the kernel offers ABI 3)") || !strings.Contains(se.Message, "--no-sandbox") {
		t.Fatalf("confined start: %v", err)
	}
	spec.Sandbox = nil
	p, err := process.Start(spec)
	if err != nil {
		t.Fatalf("unconfined start: %v", err)
	}
	<-p.Done()
}
