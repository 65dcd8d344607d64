package conformance

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// cancel.non_cooperative_terminated goes through the reference host library: the fixture's
// ignore_cancel reports one progress event and then ignores cancellation; the host's
// $/cancelRequest goes unanswered, and within the cancel grace the host must end the
// generation (process group terminated, classified non_cooperative), as seed 002 requires.

func init() {
	register(&Check{
		Name:        "cancel.non_cooperative_terminated",
		Description: "a call whose handler ignores $/cancelRequest (ignore_cancel) is cancelled at once for the caller, and the reference host ends the generation within the cancel grace with a non_cooperative reason",
		Requirement: "docs/host.md: the host terminates non-cooperative generations after a bounded grace; schema/limits.schema.json CANCEL_GRACE_MS",
		Tier:        Conditional,
		Tools:       []string{"ignore_cancel"},
		Features:    []protocol.Feature{protocol.FeatureRequestCancellation},
		Covers:      []string{protocol.MethodCancelRequest},
		Run:         checkNonCooperative,
	})
}

// noncoopGrace is the check's cancel grace: short, so the check is quick, yet far above an
// SDK's answer time to a $/cancelRequest it does read.
const noncoopGrace = 500 * time.Millisecond

// progressServices is the host's reverse-request side for this check: it tells when the
// first $/progress arrives (the handler is running) and serves nothing else.
type progressServices struct{ progressed chan struct{} }

func (p *progressServices) Handle(_ context.Context, _ *host.Caller, req *jsonrpc.Request) (any, error) {
	if req.Method == protocol.MethodProgress {
		select {
		case p.progressed <- struct{}{}:
		default:
		}
	}
	if req.IsNotification() {
		return nil, nil
	}
	return nil, jsonrpc.NewError(-32601, "method not found: "+req.Method, nil)
}
func (p *progressServices) ParentSettled(*host.Caller, jsonrpc.ID)                {}
func (p *progressServices) GenerationEnded(*host.Caller)                          {}
func (p *progressServices) SeedCatalog(*host.Caller, []host.ToolDefinition) error { return nil }

func checkNonCooperative(t *T) error {
	if t.Ext.Manifest.APIVersion == "0.1" {
		return skip("API 0.1 has no $/cancelRequest")
	}
	svc := &progressServices{progressed: make(chan struct{}, 1)}
	events := make(chan host.Event, 64)
	h, stopHost, err := referenceHostWith(t, func(o *host.Options) {
		o.Services = svc
		o.CancelGrace = noncoopGrace
		o.OnEvent = func(e host.Event) {
			select {
			case events <- e:
			default:
			}
		}
	})
	if err != nil {
		return err
	}
	defer stopHost()
	name := t.Ext.Manifest.Name
	if !slices.Contains(h.Extension(name).Status().Features, string(protocol.FeatureRequestProgress)) {
		return skip("request_progress was not negotiated, so the check cannot see the handler start")
	}
	ctx, cancel := context.WithCancel(t.Ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, _, err := h.CallTool(ctx, "ignore_cancel", mustJSON(map[string]any{"ms": 60000}))
		done <- err
	}()
	select {
	case <-svc.progressed:
	case <-time.After(t.Timeout()):
		return fail("ignore_cancel to report progress before it blocks", "no $/progress within %s", t.Timeout())
	}
	cancelled := time.Now()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		return fail("the cancelled call to return context.Canceled at once", "%v", err)
	}
	bound := noncoopGrace + exitGrace + t.Timeout()
	deadline := time.After(bound)
	for {
		select {
		case e := <-events:
			if e.Extension != name || e.State != host.StateBackoff && e.State != host.StateParked {
				continue
			}
			if !strings.Contains(e.Message, host.ReasonNonCooperative) {
				return fail("the generation's end classified "+host.ReasonNonCooperative, "%s: %s", e.State, e.Message)
			}
			t.Note("generation ended %s after $/cancelRequest (grace %s): %s", time.Since(cancelled).Round(time.Millisecond), noncoopGrace, e.Message)
			return nil
		case <-deadline:
			st := h.Extension(name).Status()
			return fail("the host to end the generation within "+bound.String()+" of an unanswered $/cancelRequest",
				"state %s, generation %d, pending %d", st.State, st.Generation, st.Pending)
		}
	}
}
