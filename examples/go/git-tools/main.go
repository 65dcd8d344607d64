// Command git-tools offers a bounded git status tool, a checkpoint preview command and a
// semantic renderer for the tool's result: the Go twin of the Python and TypeScript
// examples. git runs in the workspace with the request's context, so a cancelled call kills it.
package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"

	octet "github.com/octet-kit/octet/sdk-go"
)

// maxOutput caps what git may hand the model, so a huge repository cannot flood it.
const maxOutput = 16 * 1024

// git runs git in the workspace and returns its output (stderr when it failed), capped.
func git(ctx context.Context, args ...string) (bool, string) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = os.Getenv("OCTET_WORKSPACE")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := stdout.String()
	if err != nil {
		out = stderr.String()
		if out == "" {
			out = err.Error()
		}
	}
	if len(out) > maxOutput {
		out = out[:maxOutput]
	}
	return err == nil, out
}

type statusArgs struct {
	Untracked *bool `json:"untracked,omitempty"`
}

type statusResult struct {
	Changed int `json:"changed"`
}

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{
		Name: "git_status", Description: "Show the working tree status (short format)",
		OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"changed": map[string]any{"type": "integer"}}, "required": []any{"changed"}},
	}, func(ctx context.Context, a statusArgs) (octet.Result, error) {
		untracked := "--untracked-files=normal"
		if a.Untracked != nil && !*a.Untracked {
			untracked = "--untracked-files=no"
		}
		ok, out := git(ctx, "status", "--short", untracked)
		changed := 0
		text := "git failed: " + out
		if ok {
			for _, l := range strings.Split(out, "\n") {
				if strings.TrimSpace(l) != "" {
					changed++
				}
			}
			text = out
			if text == "" {
				text = "clean"
			}
		}
		res := octet.Text(text)
		res.IsError = !ok
		res.StructuredContent = statusResult{Changed: changed}
		return res, nil
	})
	ext.Command("checkpoint", "Preview what a checkpoint would record", func(ctx context.Context, args []string) (octet.CommandResult, error) {
		ok, out := git(ctx, append([]string{"diff", "--stat"}, args...)...)
		if !ok {
			return octet.CommandResult{Text: out, IsError: true}, nil
		}
		if out == "" {
			out = "nothing to checkpoint"
		}
		return octet.CommandResult{Text: out}, nil
	})
	ext.Renderer("git_status", func(ctx context.Context, params json.RawMessage) ([]octet.Segment, error) {
		var p struct {
			Result struct {
				StructuredContent struct {
					Changed int `json:"changed"`
				} `json:"structured_content"`
			} `json:"result"`
		}
		_ = json.Unmarshal(params, &p) // a result without structured content renders as 0 changed
		n := p.Result.StructuredContent.Changed
		role := "success"
		if n > 0 {
			role = "warning"
		}
		return []octet.Segment{octet.Styled(strconv.Itoa(n)+" changed", role)}, nil
	})
	ext.Run()
}
