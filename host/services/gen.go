package services

import (
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// genState is the in-memory state of one process generation: it dies with
// the generation (GenerationEnded), as the seeds require for presentation,
// progress and catalogs.
type genState struct {
	progress map[jsonrpc.ID]int64 // last accepted sequence per parent
	catalog  *catalogState
	present  *presentState
}

func newGenState() *genState {
	return &genState{progress: map[jsonrpc.ID]int64{}}
}

func (g *genState) stopTimers() {
	if g.present != nil && g.present.stop != nil {
		g.present.stop()
	}
}
