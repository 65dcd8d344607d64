package process

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/octet-kit/octet/host/sandbox"
)

// confine rewrites cmd to start under the sandbox when spec asks for it, and returns the
// launch to watch and the policy applied (both nil when unconfined).
func confine(cmd *exec.Cmd, spec *Spec, exe, hostPath string) (*sandbox.Launch, *sandbox.Policy, error) {
	if spec.Sandbox == nil {
		return nil, nil, nil
	}
	req := *spec.Sandbox
	req.Name, req.Dir, req.Exe, req.Workspace, req.Scratch, req.HostPath = spec.Name, spec.Dir, exe, spec.Workspace, spec.ScratchDir, hostPath
	if spec.StateDir != "" {
		// The durable state directory is the extension's own, like its scratch directory.
		req.StateDirs = append(append([]string(nil), req.StateDirs...), spec.StateDir)
	}
	policy, err := sandbox.Build(req)
	if err != nil {
		return nil, nil, &StartError{Kind: KindSandbox, Message: fmt.Sprintf("%s: %v", spec.Name, err)}
	}
	if spec.ScratchDir != "" {
		// Temporary files go to the scratch directory, the one temporary place it may write.
		cmd.Env = append(withoutKey(cmd.Env, "TMPDIR"), "TMPDIR="+spec.ScratchDir)
	}
	launch, err := sandbox.Wrap(cmd, policy)
	if err != nil {
		return nil, nil, sandboxError(spec.Name, exe, err, nil)
	}
	return launch, policy, nil
}

// sandboxError classifies a failure of the sandbox: a missing mechanism is
// sandbox_unavailable, anything else a spawn failure naming the init.
func sandboxError(name, exe string, err error, tail []string) error {
	var u *sandbox.Unavailable
	if errors.As(err, &u) {
		return &StartError{Kind: KindSandbox, Message: fmt.Sprintf("%s: %v", name, err), Stderr: tail}
	}
	return &StartError{Kind: KindSpawn, Message: fmt.Sprintf("cannot start %s confined: %v", exe, err), Stderr: tail}
}

// Policy is the sandbox policy the process runs under, nil when unconfined.
func (p *Process) Policy() *sandbox.Policy { return p.policy }

func withoutKey(env []string, key string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, key+"=") {
			out = append(out, kv)
		}
	}
	return out
}
