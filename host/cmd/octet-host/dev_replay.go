package main

import "github.com/octet-kit/octet/host/devui"

// devReplayer backs the inspector's Replay button (devui.Config.Replay). It is nil in a
// build without host/replay, and the page then says replay is not available; with it,
// it replays the session from the dev host's store against the extension directory the
// recording names and returns the replay's Report.
func devReplayer(*hostFlags) devui.Replayer { return nil }
