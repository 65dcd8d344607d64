package main

import "github.com/octet-kit/octet/host/devui"

// devReplayer is the replay behind the inspector's Replay button: nil in a build without
// `octet-host replay`, and the page then says replay is not available. The replay verb
// sets it to a function that replays a recorded session against the same directories.
func devReplayer(*hostFlags) devui.Replayer { return nil }
