package octet

import (
	"sync"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The rules of a call that the schema cannot state, because they span calls or read the
// manifest: Notify runs the send through guard, keyed by the params' type, so they stay
// in one place beside Send and no service code restates them. Python and TypeScript
// refuse the same.

// presentState orders presentation updates: revisions increase on the wire.
type presentState struct {
	mu   sync.Mutex
	last int64 // last revision sent; -1 none
	sent bool
}

func (e *Extension) guard(params any, send func() error) error {
	switch p := params.(type) {
	case *protocol.StatusContributionParams:
		s := e.session.Load()
		declared := false
		if s != nil && s.manifest.Contributes != nil {
			for _, u := range s.manifest.Contributes.UI {
				declared = declared || u == p.Surface
			}
		}
		if !declared {
			return localError("UI.ContributeStatus: surface %q is not declared in the manifest's contributes.ui", p.Surface)
		}
	case *protocol.PresentationUpdateParams:
		// Check and send under one lock, so concurrent publishers cannot reorder revisions.
		ps := &e.present
		ps.mu.Lock()
		defer ps.mu.Unlock()
		if ps.sent && p.Snapshot.Revision <= ps.last {
			return localError("snapshot revision %d does not increase (last sent %d)", p.Snapshot.Revision, ps.last)
		}
		if err := send(); err != nil {
			return err
		}
		ps.last, ps.sent = p.Snapshot.Revision, true
		return nil
	}
	return send()
}
