package host_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// recordingServices answers input/request with the owner it resolved from parent_request_id,
// and records which parents settled.
type recordingServices struct {
	mu      sync.Mutex
	settled []string
	seeded  []string
	ended   int
}

func (s *recordingServices) Handle(ctx context.Context, c *host.Caller, req *jsonrpc.Request) (any, error) {
	var p struct {
		Parent jsonrpc.ID `json:"parent_request_id"`
	}
	if err := jsonUnmarshal(req.Params, &p); err != nil {
		return nil, jsonrpc.NewError(-32602, err.Error(), nil)
	}
	owner, ok := c.ActiveParent(p.Parent)
	if !ok {
		return nil, jsonrpc.NewError(-32002, "parent "+p.Parent.String()+" is not active", nil)
	}
	// The owner of an active parent was issued to this generation; the same owner with
	// another session, or another generation's fence, was not.
	forgedSession, forgedGen := owner, owner
	forgedSession.SessionID += "x"
	forgedGen.ProcessGeneration++
	if !c.IssuedOwner(owner) || c.IssuedOwner(forgedSession) || c.IssuedOwner(forgedGen) {
		return nil, jsonrpc.NewError(-32603, "IssuedOwner does not tell the issued owner from forged ones", nil)
	}
	return map[string]any{"value": owner.SessionID + "/" + owner.ExtensionInstanceID + "/" + c.Principal}, nil
}
func (s *recordingServices) ParentSettled(c *host.Caller, id jsonrpc.ID) {
	s.mu.Lock()
	s.settled = append(s.settled, id.String())
	s.mu.Unlock()
}
func (s *recordingServices) GenerationEnded(*host.Caller) { s.mu.Lock(); s.ended++; s.mu.Unlock() }
func (s *recordingServices) SeedCatalog(c *host.Caller, tools []host.ToolDefinition) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range tools {
		s.seeded = append(s.seeded, t.Name)
	}
	return nil
}

func TestReverseRequestsResolveActiveParent(t *testing.T) {
	f := newFixture(t)
	svc := &recordingServices{}
	f.opts.Services = svc
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "rev"})})
	if err != nil {
		t.Fatal(err)
	}
	got, err := call(t, h, "callback", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(got, "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"value":"s1/rev-`) || !strings.Contains(lines[0], "/rev@") {
		t.Fatalf("active parent not resolved: %s", got)
	}
	if !strings.Contains(lines[1], "-32002") {
		t.Fatalf("a bogus parent was accepted: %s", lines[1])
	}
	svc.mu.Lock()
	settled, seeded := svc.settled, len(svc.seeded)
	svc.mu.Unlock()
	if len(settled) != 1 || seeded != len(testext.DefaultTools) {
		t.Fatalf("settled %v, seeded %d", settled, seeded)
	}
	// After the call settled, its id no longer authorises anything.
	e := h.Extension("rev")
	if e.Status().Pending != 0 {
		t.Fatalf("pending after settle")
	}
	h.Shutdown()
	svc.mu.Lock()
	defer svc.mu.Unlock()
	if svc.ended != 1 {
		t.Fatalf("GenerationEnded called %d times", svc.ended)
	}
}

func TestConcurrencyCapIsTheNegotiatedLimit(t *testing.T) {
	f := newFixture(t)
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "conc"})})
	if err != nil {
		t.Fatal(err)
	}
	// gather {n:8} returns only once 8 gather calls are in progress together, so 24 calls
	// end only if the host runs 8 at once (three full groups), with no timing assumption;
	// the extension's maxconc shows it never ran more. (A fixed sleep instead let the
	// first calls finish before the eighth started on a loaded machine.)
	var wg sync.WaitGroup
	errs := make(chan error, 24)
	for i := 0; i < 24; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := h.CallTool(t.Context(), "gather", []byte(`{"n":8}`)); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("gather (fewer than 8 calls ran at once?): %v", err)
	}
	if got, _ := call(t, h, "maxconc", `{}`); got != "8" { // fakeext answers max_concurrent_requests 8
		t.Fatalf("at most %s calls ran at once; want exactly the negotiated 8", got)
	}
}
