package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/octet-kit/octet/host/devui"
	"github.com/octet-kit/octet/host/replay"
	"github.com/octet-kit/octet/host/store"
)

// devReplayer backs the inspector's Replay button (devui.Config.Replay): it replays the
// session from the dev host's store against the extension directory the recording names,
// as `octet-host replay SESSION` does, and returns the replay's Report.
func devReplayer(hf *hostFlags) devui.Replayer {
	return func(ctx context.Context, st *store.Store, id string) (any, error) {
		frames, found, err := st.Frames(ctx, id)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("no recorded session %q", id)
		}
		recorded := make([]replay.Frame, len(frames))
		for i, f := range frames {
			recorded[i] = replay.Frame{Direction: f.Direction, Frame: f.Frame}
		}
		dir := replay.RecordedDir(recorded)
		if dir == "" {
			return nil, errors.New("the recording names no extension directory")
		}
		res, err := replay.Run(ctx, recorded, replay.Options{Dir: dir, StateDir: hf.stateDir, Workspace: hf.workspace, PassEnv: hf.passEnv, Timeout: hf.timeout})
		if err != nil {
			return nil, err
		}
		return map[string]any{"against": dir, "differences": res.Report.Differences(), "report": res.Report}, nil
	}
}
