package conformance

import (
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Delivery: what a handler sends before its result (a presentation snapshot, $/progress, a
// notification) must reach the host while the request is still active, i.e. be written
// before the result. Counting frames on the wire does not prove it: a snapshot written
// after the result names a parent the host has already settled and is dropped. This check
// counts what the reference host's services router accepted.

func init() {
	register(&Check{
		Name:        "presentation.delivered",
		Description: "the snapshot, 3 progress events and the notification that present, progress_n and notify send before their results are each accepted by the host (none dropped as naming an inactive parent)",
		Requirement: "wire.md §1 notifications handled in order, before the response; §6 presentation/update, $/progress parent_request_id (an active host request); docs/host.md: notification delivery",
		Tier:        Conditional,
		Tools:       []string{"present", "progress_n", "notify"},
		Features:    []protocol.Feature{protocol.FeatureRequestProgress},
		Covers:      []string{protocol.MethodPresentationUpdate, protocol.MethodProgress, protocol.MethodNotification},
		Run:         checkDelivered,
	})
}

func checkDelivered(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"present", map[string]any{"revision": 1, "activities": 2}},
		{"progress_n", map[string]any{"n": 3}},
		{"notify", map[string]any{"message": "delivered", "level": "info"}},
	} {
		resp, err := t.toolCall(s, c.tool, c.args)
		if err != nil {
			return err
		}
		if resp.Error != nil {
			return fail(c.tool+" to succeed", "%s", resp.Error)
		}
	}
	var snaps, progress, notes int
	var diags []string
	for _, e := range s.services.Events() {
		switch e.Kind {
		case services.EventPresentation:
			if u, ok := e.Payload.(services.PresentationUpdate); ok && u.Owner != nil {
				snaps++
			}
		case services.EventProgress:
			progress++
		case services.EventNotification:
			notes++
		case services.EventDiagnostic:
			if d, ok := e.Payload.(services.Diagnostic); ok {
				diags = append(diags, d.Method+": "+d.Message)
			}
		}
	}
	if snaps != 1 || progress != 3 || notes != 1 || len(diags) != 0 {
		return fail("1 snapshot under the present call, 3 progress events and 1 notification delivered, no diagnostic",
			"%d snapshots, %d progress events, %d notifications delivered; diagnostics %q", snaps, progress, notes, diags)
	}
	return nil
}
