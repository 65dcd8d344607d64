// Command orchestrate delegates a bounded investigation to a child model session through
// the host's agent service (spawn, message, follow up, wait, list, interrupt when the wait
// times out): the Go twin of the Python and TypeScript examples.
package main

import (
	"context"
	"fmt"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

type noArgs struct{}

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "orchestrate", Description: "Delegate a bounded investigation"},
		func(ctx context.Context, _ noArgs) (octet.Result, error) {
			id, _ := octet.RequestID(ctx)
			child, err := ext.Agents.Spawn(ctx, "inspect-catalog", "Inspect the current provider tool catalog.", octet.AgentsSpawnOptions{
				Profile: octet.Ptr[protocol.Name48]("review"),
				// Retrying the same call must not start a second child: the key is scoped to this request.
				IdempotencyKey: "catalog:" + id.String(),
				Policy: protocol.AgentPolicy{
					Tools:                 []string{"read", "search"},
					MaxDepth:              1,
					MaxConcurrentChildren: 2,
					MaxTurns:              8,
					MaxCostMicrodollars:   200_000,
					MaxOutputBytes:        8_192,
					TimeoutMS:             300_000,
				},
			})
			if err != nil {
				return octet.Result{}, err
			}
			if _, err := ext.Agents.Message(ctx, child.AgentID, "Include resource tools."); err != nil {
				return octet.Result{}, err
			}
			if _, err := ext.Agents.FollowUp(ctx, child.AgentID, "Return a compact summary."); err != nil {
				return octet.Result{}, err
			}
			settled, err := ext.Agents.Wait(ctx, octet.AgentsWaitOptions{TimeoutMS: 30_000})
			if err != nil {
				return octet.Result{}, err
			}
			agents, err := ext.Agents.List(ctx)
			if err != nil {
				return octet.Result{}, err
			}
			if settled.TimedOut {
				if _, err := ext.Agents.Interrupt(ctx, child.AgentID); err != nil {
					return octet.Result{}, err
				}
			}
			return octet.Text(fmt.Sprintf("Observed %d owned child sessions.", len(agents.Agents))), nil
		})
	ext.Run()
}
